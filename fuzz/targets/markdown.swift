// libFuzzer target `markdown`: `kcs check` on a Markdown document, and
// `kcs check --update`, in memory.
//
// The input is a Markdown document (with `%%% NAME` sections for files its
// blocks include, fuzz/Support.swift). It is checked, then updated. When
// --update rewrites the document, the oracles are:
// - only the contents of output blocks change: the document has the same
//   fenced blocks (languages, modifiers, and the contents of every other
//   block) before and after, so printed text cannot close a fence or add a
//   block;
// - updating the updated document changes nothing more.
import KCSLanguage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzFiles(fuzzBytes(data, size), mainName: "doc.md")
    let runner = BatchRunner(loader: input.loader, lint: size % 3 == 0 ? .off : .warn)
    let checked = runner.check(markdown: input.main, update: false)
    checkDiagnostics(checked.diagnostics)
    checkVerdict(checked.verdict, checked.diagnostics, "check", passedMeansClean: false)
    require(checked.updatedContent == nil, "check without --update produced a new document")

    let updated = runner.check(markdown: input.main, update: true)
    checkDiagnostics(updated.diagnostics)
    guard let content = updated.updatedContent else { return 0 }
    require(updated.updatedBlocks > 0, "a rewritten document with no block rewritten")

    let before = MarkdownBlocks.scan(input.main.bytes), after = MarkdownBlocks.scan(content)
    require(before.count == after.count, "--update changed the number of fenced blocks from \(before.count) to \(after.count)")
    for (i, (b, a)) in zip(before, after).enumerated() {
        require(b.language == a.language && b.modifiers == a.modifiers && b.closed == a.closed,
                "--update changed block \(i): \(b.language) \(b.modifiers) → \(a.language) \(a.modifiers)")
        // Output blocks after a kcs block are what --update may rewrite.
        let rewritable = b.language == "output" && i > 0 && before[i - 1].language == "kcs"
        if !rewritable {
            require(input.main.bytes[b.content.start..<b.content.end].elementsEqual(content[a.content.start..<a.content.end]),
                    "--update changed the content of block \(i) (\(b.language))")
        }
    }

    let again = runner.check(markdown: SourceFile(name: input.main.name, bytes: content), update: true)
    if let third = again.updatedContent {
        let first = zip(content, third).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(content.count, third.count)
        require(false, "a second --update rewrote \(again.updatedBlocks) more block(s); at byte \(first): "
                + "\(String(decoding: content[first...].prefix(120), as: UTF8.self).debugDescription) became "
                + "\(String(decoding: third[first...].prefix(120), as: UTF8.self).debugDescription)")
    }
    return 0
}
