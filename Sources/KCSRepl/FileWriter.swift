#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole text file with plain system calls.
enum FileWriter {
    /// Writes `text` to `path`, replacing it; returns what went wrong, or nil.
    static func write(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let failed: Bool = bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return false }
            var offset = 0
            while offset < buf.count {
                let n = systemWrite(fd, base + offset, buf.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return true }
                offset += n
            }
            return false
        }
        return failed ? String(cString: strerror(errno)) : nil
    }

    /// Writes every byte to a file descriptor (the terminal).
    static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            var offset = 0
            while offset < buf.count {
                let n = systemWrite(fd, base + offset, buf.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

/// `write(2)`, named apart from ``FileWriter/write(_:to:)``.
private func systemWrite(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
    write(fd, p, n)
}
