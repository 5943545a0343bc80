/// Names looked up by the bytes of a token, without making a string: the
/// parser's hot path matches keywords and attribute names this way.
package struct ByteTable<Value: Sendable>: Sendable {
    private var byLength: [[([UInt8], Value)]] = []

    package init(_ entries: [(String, Value)]) {
        for (name, value) in entries {
            let n = name.utf8.count
            while byLength.count <= n { byLength.append([]) }
            byLength[n].append((Array(name.utf8), value))
        }
    }

    /// The value whose name is written at `range` of `bytes`; the first
    /// entry wins when a name is listed twice.
    package func lookup(_ bytes: [UInt8], _ range: SourceRange) -> Value? {
        let n = range.end - range.start
        guard n > 0 && n < byLength.count else { return nil }
        outer: for (name, value) in byLength[n] {
            for i in 0..<n where bytes[range.start + i] != name[i] { continue outer }
            return value
        }
        return nil
    }
}
