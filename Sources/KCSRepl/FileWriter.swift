import KCSLanguage

/// Writes to the terminal with plain system calls (files go through
/// ``AtomicFile``).
enum FileWriter {
    /// Writes every byte to a file descriptor (the terminal).
    static func writeAll(_ fd: Int32, _ text: String) {
        Descriptor.writeAll(fd, Array(text.utf8))
    }
}
