#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to the terminal with plain system calls (files go through
/// ``AtomicFile``).
enum FileWriter {
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

/// `write(2)`, named apart from the enum's own functions.
private func systemWrite(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
    write(fd, p, n)
}
