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
        func readStandardInput() -> [UInt8]? {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            return n > 0 ? Array(buffer[0..<n]) : nil
        }
        // What has arrived, without waiting: the server reads ahead to skip
        // analyses that later changes make moot.
        var reader = MessageReader(pull: readStandardInput, available: {
            var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLIN) != 0 else { return nil }
            return readStandardInput()
        })
        let server = LanguageServer { writeAll(1, $0) }
        try ExitStatus.finish(server.serve(&reader))
    }
}
