import KCSSyntax
/// Bounded checks on a property list before Foundation decodes it.
///
/// Foundation's decoders recurse once per nesting level and, for a binary
/// list, once per reference, so a crafted file can overflow the stack or
/// expand a small shared object graph exponentially. These scans look at
/// the real structure (every XML element; the binary object table) in one
/// linear pass with explicit stacks, so the guard cannot be sidestepped by
/// spelling (`<array >`, a line break inside a tag, a comment).
package enum PlistGuard {
    /// Why a property list is refused before decoding.
    package enum Problem: Error, Equatable {
        case tooDeep(limit: Int)
        case tooLarge(limit: Int)
        case cyclic
        case entityDeclaration
        case malformedBinary(String)
        case duplicateKey(String)
        /// Its strings and data, counted each time they are referred to, pass this many bytes.
        case expandsPast(bytes: Int)

        var message: String {
            switch self {
            case .tooDeep(let limit): "the property list nests deeper than \(limit) levels"
            case .tooLarge(let limit): "the property list expands to more than \(limit) values"
            case .cyclic: "the binary property list refers to itself"
            case .entityDeclaration: "the property list declares XML entities, which property lists never need"
            case .malformedBinary(let why): "the binary property list is malformed: \(why)"
            case .duplicateKey(let key):
                "the property list gives the key '\(TerminalText.escaped(String(key.prefix(64))))' twice in one dictionary"
            case .expandsPast(let limit):
                "the binary property list's strings and data, each counted every time it is referred to, pass \(limit >> 20) MiB"
            }
        }
    }

    /// Checks either form: binary (`bplist`) or XML.
    /// The bytes of strings and data a binary property list may expand to:
    /// one 900 KB string referred to 5,000 times decoded to 4.5 GB and ended
    /// `kcs run --untrusted` out of memory (adversarial run 24, F12).
    package static let maxExpandedBytes = 16 << 20

    package static func check(_ plist: [UInt8], maxDepth: Int, maxValues: Int = 1_000_000) -> Problem? {
        if plist.starts(with: Array("bplist".utf8)) { return checkBinary(plist, maxDepth: maxDepth, maxValues: maxValues) }
        return checkXML(plist, maxDepth: maxDepth)
    }

    // MARK: XML

    /// The deepest element nesting of an XML document: every start tag
    /// opens a level (whatever its name, attributes or spacing) unless it
    /// closes itself; comments, CDATA, processing instructions and
    /// declarations are skipped as XML defines them.
    package static func xmlDepth(_ b: [UInt8]) -> Result<Int, Problem> {
        var depth = 0, deepest = 0, i = 0
        let n = b.count
        while i < n {
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            if has(b, i, "<!--") {
                guard let end = find(b, "-->", from: i + 4) else { break }
                i = end + 3
            } else if has(b, i, "<![CDATA[") {
                guard let end = find(b, "]]>", from: i + 9) else { break }
                i = end + 3
            } else if has(b, i, "<?") {
                guard let end = find(b, "?>", from: i + 2) else { break }
                i = end + 2
            } else if has(b, i, "<!") {
                if has(b, i, "<!ENTITY") { return .failure(.entityDeclaration) }
                // A declaration may hold an internal subset in brackets.
                var j = i + 2, brackets = 0
                while j < n, !(b[j] == UInt8(ascii: ">") && brackets == 0) {
                    if b[j] == UInt8(ascii: "[") { brackets += 1 }
                    if b[j] == UInt8(ascii: "]") { brackets = max(0, brackets - 1) }
                    if has(b, j, "<!ENTITY") { return .failure(.entityDeclaration) }
                    j += 1
                }
                i = j + 1
            } else {
                let closing = i + 1 < n && b[i + 1] == UInt8(ascii: "/")
                // To the first `>`, quotes or not: a parser that honours
                // quotes can only see fewer tags than this counts, while
                // honouring them here would let `<array">…"` hide a thousand
                // tags from the count that a parser reading to `>` opens.
                var j = i + 1
                while j < n, b[j] != UInt8(ascii: ">") { j += 1 }
                let selfClosing = j < n && b[j - 1] == UInt8(ascii: "/")
                if closing {
                    depth = max(0, depth - 1)
                } else if !selfClosing {
                    depth += 1
                    deepest = max(deepest, depth)
                }
                i = j + 1
            }
        }
        return .success(deepest)
    }

    static func checkXML(_ b: [UInt8], maxDepth: Int) -> Problem? {
        switch xmlDepth(b) {
        case .failure(let p): return p
        case .success(let d): return d > maxDepth ? .tooDeep(limit: maxDepth) : nil
        }
    }

    private static func has(_ b: [UInt8], _ at: Int, _ s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard at + count <= b.count else { return false }
        return s.withUTF8Buffer { needle in
            for k in 0..<count where b[at + k] != needle[k] { return false }
            return true
        }
    }

    private static func find(_ b: [UInt8], _ s: StaticString, from: Int) -> Int? {
        var i = from
        while i < b.count {
            if has(b, i, s) { return i }
            i += 1
        }
        return nil
    }

    // MARK: Binary

    /// Walks a binary property list's object graph from its top object with
    /// an explicit stack: its depth, and how many values decoding would
    /// produce (shared objects counted each time they are reached).
    static func checkBinary(_ b: [UInt8], maxDepth: Int, maxValues: Int) -> Problem? {
        guard b.count >= 8 + 32 else { return .malformedBinary("it is shorter than its header and trailer") }
        let t = b.count - 32
        let offsetSize = Int(b[t + 6]), refSize = Int(b[t + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else { return .malformedBinary("bad integer sizes") }
        guard let objects = int(b, t + 8, 8), let top = int(b, t + 16, 8), let table = int(b, t + 24, 8) else {
            return .malformedBinary("bad trailer")
        }
        guard objects >= 1, objects <= b.count, top < objects, table >= 8,
              table <= t, objects <= (t - table) / offsetSize else {
            return .malformedBinary("the offset table does not fit the file")
        }
        /// The children of an object (values of arrays, sets and
        /// dictionaries, keys included), or nil when it does not fit; for a
        /// dictionary, how many of them are keys (they come first).
        /// Where an object starts, if its offset lies inside the file.
        func offset(of object: Int) -> Int? {
            guard let offset = int(b, table + object * offsetSize, offsetSize), offset >= 8, offset < table else { return nil }
            return offset
        }
        /// The element count of the object at `offset` (in its marker, or
        /// an integer object after it) and where its contents start.
        func count(at offset: Int) -> (count: Int, start: Int)? {
            let count = Int(b[offset] & 0x0F)
            guard count == 0x0F else { return (count, offset + 1) }
            let start = offset + 1
            guard start < table, b[start] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(b[start] & 0x0F)
            guard size <= 8, let c = int(b, start + 1, size) else { return nil }
            return (c, start + 1 + size)
        }
        func children(_ object: Int) -> (refs: [Int], keys: Int)? {
            guard let offset = offset(of: object) else { return nil }
            let kind = b[offset] >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { return ([], 0) }
            guard let (count, start) = count(at: offset) else { return nil }
            let refs = kind == 0xD ? 2 : 1
            guard count <= (table - start) / (refSize * refs) else { return nil }
            var out: [Int] = []
            out.reserveCapacity(count * refs)
            for k in 0..<(count * refs) {
                guard let r = int(b, start + k * refSize, refSize), r < objects else { return nil }
                out.append(r)
            }
            return (out, kind == 0xD ? count : 0)
        }
        // Dictionary keys, read once per key object; the bytes read are
        // capped so overlapping objects cannot make this quadratic.
        var keyText: [Int: String] = [:]
        var keyBytes = 0
        /// Why a dictionary's keys cannot be decoded the same way twice:
        /// Foundation picks one of two equal keys by hash order, which
        /// changes from process to process (fuzz finding 6).
        func keyProblem(_ keys: ArraySlice<Int>) -> Problem? {
            guard keys.count > 1 else { return nil }
            var seen = Set<String>()
            for k in keys {
                let text: String
                if let known = keyText[k] {
                    text = known
                } else {
                    guard let (t, n) = string(object: k) else { return .malformedBinary("a dictionary key is not a string") }
                    keyBytes += n
                    guard keyBytes <= 8 * b.count + 4096 else { return .tooLarge(limit: maxValues) }
                    keyText[k] = t
                    text = t
                }
                if !seen.insert(text).inserted { return .duplicateKey(text) }
            }
            return nil
        }
        /// A string object's text and its size in bytes: ASCII (0x5_) or
        /// UTF-16 big-endian (0x6_); nil for any other object.
        func string(object: Int) -> (String, Int)? {
            guard let offset = offset(of: object) else { return nil }
            let kind = b[offset] >> 4
            guard kind == 0x5 || kind == 0x6, let (count, start) = count(at: offset) else { return nil }
            let width = kind == 0x5 ? 1 : 2
            guard count <= (table - start) / width else { return nil }
            let bytes = b[start..<(start + count * width)]
            if width == 1 { return (String(decoding: bytes, as: UTF8.self), bytes.count) }
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var i = bytes.startIndex
            while i < bytes.endIndex {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return (String(decoding: units, as: UTF16.self), bytes.count)
        }
        // Depth-first, iteratively; 0 unvisited, 1 on the path, 2 done.
        var state = [UInt8](repeating: 0, count: objects)
        var depth = [Int](repeating: 1, count: objects)
        var values = [Int](repeating: 1, count: objects)
        // The bytes each object expands to: its own string or data, and its
        // children's as often as they are referred to.
        var expanded = [Int](repeating: 0, count: objects)
        /// nil when its count does not fit in the file: a UTF-16 count of
        /// 2^62 + 1 once wrapped negative and cancelled the sum (adversarial
        /// run 25, F8). A count that fits keeps every product and sum here
        /// below the file's size, so none can overflow.
        func ownBytes(_ object: Int) -> Int? {
            guard let offset = offset(of: object) else { return 0 }
            let kind = b[offset] >> 4
            guard kind == 0x4 || kind == 0x5 || kind == 0x6 else { return 8 }
            guard let (count, start) = count(at: offset) else { return nil }
            let width = kind == 0x6 ? 2 : 1
            guard start <= table, count <= (table - start) / width else { return nil }
            return count * width
        }
        var stack: [(object: Int, children: [Int], next: Int)] = []
        guard let rootChildren = children(top) else { return .malformedBinary("an object lies outside the file") }
        if let problem = keyProblem(rootChildren.refs.prefix(rootChildren.keys)) { return problem }
        stack.append((top, rootChildren.refs, 0))
        state[top] = 1
        while let frame = stack.last {
            if frame.next < frame.children.count {
                stack[stack.count - 1].next += 1
                let child = frame.children[frame.next]
                switch state[child] {
                case 1: return .cyclic
                case 2: continue
                default:
                    guard stack.count < maxDepth else { return .tooDeep(limit: maxDepth) }
                    guard let grandchildren = children(child) else { return .malformedBinary("an object lies outside the file") }
                    if let problem = keyProblem(grandchildren.refs.prefix(grandchildren.keys)) { return problem }
                    state[child] = 1
                    stack.append((child, grandchildren.refs, 0))
                }
            } else {
                stack.removeLast()
                guard let own = ownBytes(frame.object) else { return .malformedBinary("a string or data object runs past the file") }
                // Each term is at most its cap + 1, so no sum can wrap.
                var d = 1, v = 1, bytes = min(Self.maxExpandedBytes + 1, own)
                for c in frame.children {
                    d = max(d, depth[c] + 1)
                    v = min(maxValues + 1, v + values[c])
                    bytes = min(Self.maxExpandedBytes + 1, bytes + expanded[c])
                }
                depth[frame.object] = d
                values[frame.object] = v
                expanded[frame.object] = bytes
                state[frame.object] = 2
                if d > maxDepth { return .tooDeep(limit: maxDepth) }
                if v > maxValues { return .tooLarge(limit: maxValues) }
                if bytes > Self.maxExpandedBytes { return .expandsPast(bytes: Self.maxExpandedBytes) }
            }
        }
        return nil
    }

    /// A big-endian unsigned integer of `size` bytes, if it fits and is an Int.
    private static func int(_ b: [UInt8], _ at: Int, _ size: Int) -> Int? {
        guard at >= 0, size >= 1, at + size <= b.count else { return nil }
        var v: UInt64 = 0
        for k in 0..<size { v = v << 8 | UInt64(b[at + k]) }
        return v <= UInt64(Int.max) ? Int(v) : nil
    }
}
