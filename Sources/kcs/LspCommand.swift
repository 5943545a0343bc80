import ArgumentParser
import Foundation
import KCSLanguageServer

/// `kcs lsp`: the language server over standard input and output.
struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server (Language Server Protocol over standard input and output).",
        discussion: "Editors start it themselves; see docs/editors.md for the set-up of each editor.")

    func run() throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var reader = MessageReader {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            return n > 0 ? Array(buffer[0..<n]) : nil
        }
        let server = LanguageServer { writeAll(1, $0) }
        try ExitStatus.finish(server.serve(&reader))
    }
}
