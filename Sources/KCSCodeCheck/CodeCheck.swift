import KCSLanguage
import KCSXcode
import KCSXcodeProject
import KeychainEngine
@_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// What the code asks for against what it is granted: every access group a
/// target's Swift sources name, checked against that target's access-group
/// list in the lint's configuration.
public enum CodeCheck {
    /// Sources beyond this many per target are not read.
    public static let maxFiles = 5000
    /// A file nesting brackets or `#if` deeper than this, or longer than
    /// `maxFileBytes`, is not parsed: swift-syntax recurses once per level
    /// (real code nests a few dozen deep; 3,000 `#if` in 30 KB or 5,000
    /// nested interpolations in 25 KB crashed the parser or took 1.2 GB,
    /// found by adversarial testing). A chain without brackets (`try try
    /// …`, `a!!!…`) is as deep as it is long: 1 MiB keeps it within the
    /// large stack (2.4 MB of `try` overflowed 1 GiB in a debug build).
    public static let maxNesting = 1000
    public static let maxFileBytes = 1 << 20
    /// Square brackets nested past which a file is not parsed (``refusal(_:)``).
    public static let maxSquareNesting = 16
    /// Source parsed in one check, all files together.
    public static let maxParsedBytes = 8 << 20
    /// Source read in one check, each real file once: most is only scanned
    /// for words, not parsed.
    public static let maxReadBytes = 64 << 20

    /// Why a file is not parsed, or nil: one pass over its bytes that knows
    /// strings (interpolations nest), raw strings and comments, so a bracket
    /// or `#endif` written in a string or a comment counts for nothing (60 KB
    /// of nested interpolations with a `)` in each string got past a count
    /// that did not, and took 2.9 GB; found by adversarial testing).
    static func refusal(_ bytes: [UInt8]) -> String? {
        if bytes.count > maxFileBytes { return "it is larger than \(maxFileBytes >> 20) MiB" }
        // Two counts, either refuses: this scan's, and one over swift-syntax's
        // own tokens (``lexedRefusal(_:)``). The scan's model of Swift's lexer
        // was fooled five times into a string that ran to the end of the file
        // and hid all the nesting after it (adversarial runs 23–26); the
        // tokens are what the parser reads, so no misread string hides depth.
        return scannedRefusal(bytes) ?? lexedRefusal(bytes)
    }

    /// Why a file is not parsed, counted on the tokens of swift-syntax's
    /// lexer (linear: the lexer looks ahead at most to a line's end, and the
    /// parser consumes the same tokens): square brackets, all brackets, `#if`
    /// and `<` as ``scannedRefusal(_:)`` counts them, without any model of
    /// strings, comments or regex literals. The parser reads other tokens
    /// than the lexer alone in two places, and both are made to count more,
    /// never less:
    /// - it splits an operator (`>` of `A<B>/…`, `!`, `.`) and lexes the rest
    ///   again, where a `/` may start a regex literal the lexer had not seen:
    ///   a file with an operator holding `/` past its first character is
    ///   refused (real code has none);
    /// - it ends an interpolation that does not close where the lexer thought
    ///   (`"\(a b …`), and takes the next quote for the string's end: every
    ///   `[` in an interpolation (nested strings and comments included) counts
    ///   as open to its end, and a quote in a comment or regex literal
    ///   inside one refuses the file.
    static func lexedRefusal(_ bytes: [UInt8]) -> String? {
        var depth = 0, deepest = 0, squares = 0, deepestSquare = 0, ifs = 0, deepestIf = 0
        var angles: [Int] = [], deepestAngles = 0
        // Open interpolations: the bracket depth their `(` opened at, the
        // square brackets open there, and each `[` written in a string,
        // comment or regex inside (none of which closes).
        var interpolations: [(depth: Int, squares: Int, written: Int)] = []
        var afterBackslash = false
        var why: String?
        /// Each `[` in text that is no bracket token, inside an interpolation.
        func count(_ text: SyntaxText, quoteRefuses: Bool) {
            guard let open = interpolations.last else { return }
            for b in text {
                if b == UInt8(ascii: "[") {
                    interpolations[interpolations.count - 1].written += 1
                    deepestSquare = max(deepestSquare, max(squares, open.squares) + open.written + 1)
                } else if b == UInt8(ascii: "\""), quoteRefuses, why == nil {
                    why = "it has a quote in a comment or regex literal inside a string interpolation (swift-syntax's parser may read it as the string's end)"
                }
            }
        }
        bytes.withUnsafeBufferPointer { buffer in
            var tracker = LookaheadTracker()
            withUnsafeMutablePointer(to: &tracker) { tracker in
                for lexeme in Lexer.tokenize(buffer, lookaheadTracker: tracker, experimentalFeatures: []) {
                    if lexeme.rawTokenKind == .endOfFile || why != nil { break }
                    let text = lexeme.tokenText
                    count(lexeme.leadingTriviaText, quoteRefuses: true)
                    count(lexeme.trailingTriviaText, quoteRefuses: true)
                    switch lexeme.rawTokenKind {
                    case .leftSquare, .leftParen, .leftBrace:
                        if lexeme.rawTokenKind == .leftSquare {
                            squares += 1
                            let open = interpolations.last
                            deepestSquare = max(deepestSquare, max(squares, open?.squares ?? 0) + (open?.written ?? 0))
                        }
                        if lexeme.rawTokenKind == .leftParen, afterBackslash {
                            interpolations.append((depth, squares, 0))
                        }
                        if lexeme.rawTokenKind == .leftBrace { angles.removeAll() }
                        depth += 1
                        deepest = max(deepest, depth)
                    case .rightSquare, .rightParen, .rightBrace:
                        if lexeme.rawTokenKind == .rightSquare { squares = max(0, squares - 1) }
                        if lexeme.rawTokenKind == .rightBrace { angles.removeAll() }
                        depth = max(0, depth - 1)
                        if lexeme.rawTokenKind == .rightParen, let open = interpolations.last, open.depth == depth {
                            // What the interpolation closed cannot lower what was open.
                            squares = max(squares, open.squares)
                            interpolations.removeLast()
                        }
                        while let last = angles.last, last > depth { angles.removeLast() }
                    case .poundIf:
                        ifs += 1
                        deepestIf = max(deepestIf, ifs)
                    case .poundEndif:
                        ifs = max(0, ifs - 1)
                    case .semicolon, .equal:
                        angles.removeAll()
                    case .binaryOperator, .prefixOperator, .postfixOperator, .leftAngle, .rightAngle, .exclamationMark,
                         .postfixQuestionMark, .infixQuestionMark, .period, .prefixAmpersand, .ellipsis:
                        if text.dropFirst().contains(UInt8(ascii: "/")) {
                            why = "it has an operator with a '/' past its first character (swift-syntax's parser may split it and read a regex literal)"
                        }
                        for b in text {
                            if b == UInt8(ascii: "<") {
                                angles.append(depth)
                                deepestAngles = max(deepestAngles, angles.count)
                            } else if b == UInt8(ascii: ">") {
                                if !angles.isEmpty { angles.removeLast() }
                            } else if b == UInt8(ascii: "=") {
                                angles.removeAll()
                            }
                        }
                    case .regexLiteralPattern:
                        count(text, quoteRefuses: true)
                    default:
                        count(text, quoteRefuses: false)
                    }
                    afterBackslash = lexeme.rawTokenKind == .backslash || (afterBackslash && lexeme.rawTokenKind == .rawStringPoundDelimiter)
                }
            }
        }
        if let why { return why }
        return tooDeep(squares: deepestSquare, brackets: deepest, ifs: deepestIf, angles: deepestAngles)
    }

    /// Which of the deepest nestings a count found passes its bound, if any.
    static func tooDeep(squares: Int, brackets: Int, ifs: Int, angles: Int) -> String? {
        if squares > maxSquareNesting {
            return "it nests square brackets more than \(maxSquareNesting) deep (swift-syntax's parser takes time that doubles with each level)"
        }
        if brackets > maxNesting { return "it nests brackets more than \(maxNesting) deep" }
        if ifs > maxNesting { return "it nests #if more than \(maxNesting) deep" }
        if angles > maxNesting { return "it nests generic arguments more than \(maxNesting) deep" }
        return nil
    }

    /// Why a file is not parsed, by a model of Swift's lexer: see ``refusal(_:)``.
    static func scannedRefusal(_ bytes: [UInt8]) -> String? {
        enum Frame {
            /// Code; in an interpolation, the bracket depth its `(` opened at.
            case code(interpolation: Int?)
            case string(hashes: Int, multiline: Bool)
        }
        var frames: [Frame] = [.code(interpolation: nil)]
        var depth = 0, deepest = 0, ifDepth = 0, deepestIf = 0
        // Generic arguments, which the parser looks ahead over at each level
        // (5,000 levels took 22 s): each open `<` with the bracket depth it
        // opened at. A `>` closes one; a statement's end, a brace or a
        // bracket closing below it forgets it (`assert(i<n)` a thousand times
        // was taken for deep generics; found by review).
        var angles: [Int] = [], deepestAngles = 0
        // Square brackets open at once (`[[[`, `[([(`, `[A<[A<`, `[(a:[(a:`):
        // swift-syntax 603's parser tries each `[` as an inline-array type
        // and again as a collection, so its time doubles with each level
        // (40 in a 196-byte file ran for hours; adversarial run 23, F4; the
        // review of session 17 found the shapes with words between). Real
        // code nests a few; parentheses and generics alone are linear.
        var squareDepth = 0, deepestSquare = 0
        // Each open string's square brackets (net, and the deepest), for a
        // one-line string its line ends without closing.
        var stringSquares: [(depth: Int, deepest: Int)] = []
        func at(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }
        func starts(_ i: Int, _ text: String) -> Bool { bytes[i...].starts(with: text.utf8) }
        /// Counts a regex literal's inside `from..<to` as if it were code
        /// (`(`, `[`, `{`, `<`, `#if`): its deepest point, plus each escaped
        /// opener or one in a character class, against the bounds, and what
        /// it leaves open carried on. A real regex nests a few levels and
        /// balances; one the scan misreads is code to the parser, so it is
        /// refused as code would be (adversarial run 25, F1, F6).
        func countAsCode(_ from: Int, _ to: Int) {
            var net = 0, peak = 0, squares = 0, squarePeak = 0, angleNet = 0, anglePeak = 0, ifs = 0, ifPeak = 0
            var extra = 0, extraSquares = 0, extraAngles = 0, inClass = 0
            var k = from
            while k < to {
                let b = bytes[k]
                if b == UInt8(ascii: "\\"), k + 1 < to {
                    switch bytes[k + 1] {
                    case UInt8(ascii: "("), UInt8(ascii: "{"): extra += 1
                    case UInt8(ascii: "["): extra += 1; extraSquares += 1
                    case UInt8(ascii: "<"): extraAngles += 1
                    default: break
                    }
                    k += 2
                    continue
                }
                switch b {
                case UInt8(ascii: "["):
                    net += 1; peak = max(peak, net); squares += 1; squarePeak = max(squarePeak, squares); inClass += 1
                case UInt8(ascii: "]"):
                    net = max(0, net - 1); squares = max(0, squares - 1); inClass = max(0, inClass - 1)
                case UInt8(ascii: "("), UInt8(ascii: "{"):
                    if inClass > 0 { extra += 1 } else { net += 1; peak = max(peak, net) }
                case UInt8(ascii: ")"), UInt8(ascii: "}"):
                    if inClass == 0 { net = max(0, net - 1) }
                case UInt8(ascii: "<"):
                    if inClass > 0 { extraAngles += 1 } else { angleNet += 1; anglePeak = max(anglePeak, angleNet) }
                case UInt8(ascii: ">"):
                    if inClass == 0 { angleNet = max(0, angleNet - 1) }
                case UInt8(ascii: "#"):
                    if starts(k, "#if"), !isIdentifierByte(at(k + 3)) {
                        ifs += 1; ifPeak = max(ifPeak, ifs)
                    } else if starts(k, "#endif") {
                        ifs = max(0, ifs - 1)
                    }
                default: break
                }
                k += 1
            }
            deepest = max(deepest, depth + peak + extra)
            deepestSquare = max(deepestSquare, squareDepth + squarePeak + extraSquares)
            deepestAngles = max(deepestAngles, angles.count + anglePeak + extraAngles)
            deepestIf = max(deepestIf, ifDepth + ifPeak)
            depth += net
            squareDepth += squares
            angles += repeatElement(depth, count: angleNet)
            ifDepth += ifs
        }
        // Searches for `#/`'s closing `/#…` that came to nothing: no `/`
        // followed by `below` or more `#` in `from..<to`.
        var noClose: [(from: Int, to: Int, below: Int)] = []
        /// Where the `/` that closes a regex with `hashes` `#` lies in
        /// `from..<to` (the first `/` followed by at least that many, as
        /// swift-syntax's lexer takes it; a backslash escapes the next byte).
        func regexClose(from: Int, to: Int, hashes: Int) -> Int? {
            noClose.removeAll { $0.to <= from }
            for known in noClose where known.from <= from && to <= known.to && hashes >= known.below { return nil }
            var j = from, longest = 0
            while j < to {
                if bytes[j] == UInt8(ascii: "\\") { j += 2; continue }
                if bytes[j] == UInt8(ascii: "/") {
                    var n = 0
                    while at(j + 1 + n) == UInt8(ascii: "#") { n += 1 }
                    if n >= hashes, j + n < to { return j }
                    longest = max(longest, n)
                }
                j += 1
            }
            noClose.append((from, to, longest + 1))
            return nil
        }
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            switch frames[frames.count - 1] {
            case .string(let hashes, let multiline):
                // A backslash before the line break escapes nothing in a
                // one-line string: the string ends at its line (a trailing
                // `\\` carried it over 30,000 lines of `#if`; adversarial run 25, F13).
                if c == UInt8(ascii: "\\"), multiline || !isLineEnd(at(i + 1)) {
                    // `\(`, or `\#(` in a raw string: an interpolation.
                    var k = i + 1, n = 0
                    while n < hashes, at(k) == UInt8(ascii: "#") { k += 1; n += 1 }
                    if n == hashes, at(k) == UInt8(ascii: "(") {
                        depth += 1
                        deepest = max(deepest, depth)
                        frames.append(.code(interpolation: depth))
                        i = k + 1
                        continue
                    }
                    i += hashes == 0 ? 2 : 1
                    continue
                }
                // A one-line string ends at its line, closed or not (an open
                // one blinded the scan to the rest of the file; found by review).
                // One left open there was no string to Swift either (a quote
                // the scan took for one: in a regex literal it misread, say):
                // its square brackets count, so a misreading can only refuse
                // more (review of session 18, R1).
                if isLineEnd(c), !multiline {
                    frames.removeLast()
                    if let open = stringSquares.popLast() {
                        deepestSquare = max(deepestSquare, squareDepth + open.deepest)
                        squareDepth += max(0, open.depth)
                    }
                    i += 1
                    continue
                }
                if c == UInt8(ascii: "\""), !multiline || starts(i, "\"\"\"") {
                    var k = i + (multiline ? 3 : 1), n = 0
                    while n < hashes, at(k) == UInt8(ascii: "#") { k += 1; n += 1 }
                    if n == hashes { frames.removeLast(); _ = stringSquares.popLast(); i = k; continue }
                }
                if !stringSquares.isEmpty {
                    if c == UInt8(ascii: "[") {
                        stringSquares[stringSquares.count - 1].depth += 1
                        stringSquares[stringSquares.count - 1].deepest = max(stringSquares[stringSquares.count - 1].deepest,
                                                                             stringSquares[stringSquares.count - 1].depth)
                    } else if c == UInt8(ascii: "]") {
                        stringSquares[stringSquares.count - 1].depth -= 1
                    }
                }
                i += 1
                continue
            case .code(let interpolation):
                if c == UInt8(ascii: "[") {
                    squareDepth += 1
                    deepestSquare = max(deepestSquare, squareDepth)
                } else if c == UInt8(ascii: "]") {
                    squareDepth = max(0, squareDepth - 1)
                }
                switch c {
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "/"):
                    // To the line's end, a lone CR included, as Swift ends it.
                    while i < bytes.count, !isLineEnd(bytes[i]) { i += 1 }
                    continue
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                    var level = 0
                    while i < bytes.count {
                        if starts(i, "/*") { level += 1; i += 2 } else if starts(i, "*/") { level -= 1; i += 2; if level == 0 { break } } else { i += 1 }
                    }
                    continue
                case UInt8(ascii: "/") where mayStartRegex(bytes, at: i):
                    // A bare regex literal `/…/` (Swift 5.7) may hold quotes
                    // and brackets: skipped whole, as the parser reads it.
                    // Taking its `"` for a string hid the rest of the line
                    // (`let r = /"/; let g = [[[…` past the square-bracket
                    // bound ran for hours; adversarial run 24, F4).
                    // What is inside counts as code all the same
                    // (``countAsCode``): a regex the scan misreads can only
                    // make it refuse more.
                    if let end = bareRegexEnd(bytes, from: i) {
                        countAsCode(i + 1, end)
                        i = end + 1
                        continue
                    }
                case UInt8(ascii: "`"):
                    // A raw identifier (`` `a"b` ``, Swift 6.2) ends at its
                    // backtick on the line: a quote in it opens no string
                    // (adversarial run 24, F4).
                    var j = i + 1
                    while j < bytes.count, bytes[j] != UInt8(ascii: "`"), !isLineEnd(bytes[j]) { j += 1 }
                    if j < bytes.count, bytes[j] == UInt8(ascii: "`") { i = j + 1; continue }
                case UInt8(ascii: "#"), UInt8(ascii: "\""):
                    var k = i, hashes = 0
                    while at(k) == UInt8(ascii: "#") { k += 1; hashes += 1 }
                    // A regex literal `#/…/#` may hold quotes: skipped whole.
                    // An unclosed one is no regex: scanning goes on at its `/`
                    // (skipping the rest hid nesting; found by adversarial testing).
                    // SE-0354: multi-line only when a line break follows the
                    // opener, else it ends on its line; one not closed there
                    // was read to the end of the file from each `#/`, hiding
                    // all it passed (adversarial run 25, F1). Its inside
                    // counts as code, and failed searches are remembered, so
                    // each part of a line is searched at most once per `#` count.
                    if hashes > 0, at(k) == UInt8(ascii: "/") {
                        guard hashes <= maxRegexHashes else { return "it opens a regex literal with more than \(maxRegexHashes) '#'" }
                        var m = k + 1
                        while at(m) == UInt8(ascii: " ") || at(m) == UInt8(ascii: "\t") { m += 1 }
                        let multiline = m < bytes.count && isLineEnd(bytes[m])
                        var end = multiline ? bytes.count : k + 1
                        if !multiline { while end < bytes.count, !isLineEnd(bytes[end]) { end += 1 } }
                        if let close = regexClose(from: k + 1, to: end, hashes: hashes) {
                            countAsCode(k + 1, close)
                            i = close + 1 + hashes
                        } else {
                            i = k
                        }
                        continue
                    }
                    if at(k) == UInt8(ascii: "\"") {
                        let multiline = starts(k, "\"\"\"")
                        frames.append(.string(hashes: hashes, multiline: multiline))
                        stringSquares.append((0, 0))
                        i = k + (multiline ? 3 : 1)
                        continue
                    }
                    if starts(i, "#if"), !isIdentifierByte(at(i + 3)) {
                        ifDepth += 1
                        deepestIf = max(deepestIf, ifDepth)
                    } else if starts(i, "#endif") {
                        ifDepth = max(0, ifDepth - 1)
                    }
                case UInt8(ascii: "<"):
                    // Every `<`: a space before one does not stop the parser
                    // reading generic arguments (`A <A <…` hung; found by
                    // adversarial testing); a comparison's is forgotten at
                    // the statement's end or the bracket that closes around it.
                    angles.append(depth)
                    deepestAngles = max(deepestAngles, angles.count)
                case UInt8(ascii: ">"):
                    if !angles.isEmpty { angles.removeLast() }
                case UInt8(ascii: ";"), UInt8(ascii: "="):
                    angles.removeAll()
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                    if c == UInt8(ascii: "{") { angles.removeAll() }
                    depth += 1
                    deepest = max(deepest, depth)
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if c == UInt8(ascii: "}") { angles.removeAll() }
                    if c == UInt8(ascii: ")"), let opened = interpolation, depth == opened { frames.removeLast() }
                    depth = max(0, depth - 1)
                    while let last = angles.last, last > depth { angles.removeLast() }
                default: break
                }
                i += 1
            }
        }
        return tooDeep(squares: deepestSquare, brackets: deepest, ifs: deepestIf, angles: deepestAngles)
    }

    /// Whether the `/` at `i` can open a bare regex literal, as Swift's
    /// lexer decides (SE-0354): not followed by a space, and where an
    /// expression may start, after an operator, an opening bracket, a comma,
    /// a colon or a keyword that an expression follows, or at the start of
    /// the file; after an operand (`a / b`, `x)/2`) it divides.
    static func mayStartRegex(_ bytes: [UInt8], at i: Int) -> Bool {
        let next = i + 1 < bytes.count ? bytes[i + 1] : 0
        guard next != UInt8(ascii: " "), next != UInt8(ascii: "\t"), next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r"), next != 0 else {
            return false
        }
        // Glued to what comes before, the slash is part of an operator or
        // divides (`a/b`, `x)/2`, `a+/b`); after a blank, the start of the
        // file or an opening bracket or separator, the lexer tries a regex
        // (review of session 18, R1: `x /"/` is one).
        guard i > 0 else { return true }
        let before = bytes[i - 1]
        return before == UInt8(ascii: " ") || before == UInt8(ascii: "\t") || before == UInt8(ascii: "\n") || before == UInt8(ascii: "\r")
            || "([{,:;".utf8.contains(before)
    }

    /// A line break to Swift: LF or CR (a lone CR ends a comment or a
    /// one-line string as LF does).
    static func isLineEnd(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

    /// More `#` than this around a regex literal refuse the file: real
    /// code uses one or two, and each count may cost the scan a pass.
    static let maxRegexHashes = 16

    /// Where the `/` closing a bare regex that opens at `i` lies, or nil
    /// when SE-0354 says it is none: no closing `/` on the line, a space or
    /// tab before it, an unbalanced `)` (outside a character class, not
    /// escaped), or a `/` or `*` after it (a comment).
    static func bareRegexEnd(_ bytes: [UInt8], from i: Int) -> Int? {
        var j = i + 1, groups = 0, inClass = 0
        while j < bytes.count, !isLineEnd(bytes[j]) {
            switch bytes[j] {
            case UInt8(ascii: "\\"):
                j += j + 1 < bytes.count && !isLineEnd(bytes[j + 1]) ? 2 : 1
                continue
            case UInt8(ascii: "/"):
                let before = bytes[j - 1]
                let after = j + 1 < bytes.count ? bytes[j + 1] : 0
                guard before != UInt8(ascii: " "), before != UInt8(ascii: "\t"),
                      after != UInt8(ascii: "/"), after != UInt8(ascii: "*") else { return nil }
                return j
            case UInt8(ascii: "["): inClass += 1
            case UInt8(ascii: "]"): inClass = max(0, inClass - 1)
            case UInt8(ascii: "(") where inClass == 0: groups += 1
            case UInt8(ascii: ")") where inClass == 0:
                guard groups > 0 else { return nil }
                groups -= 1
            default: break
            }
            j += 1
        }
        return nil
    }

    static func isIdentifierByte(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b >= 0x80
    }

    /// Runs the check on a thread with a large stack (`LargeStack`): long
    /// chains (`a.b.b…`, `else if` after `else if`) are deep trees however
    /// few brackets they have, and the walks over them recurse.
    /// Files are read through the lint's file system (the one it was loaded with).
    public static func run(_ lint: ProjectLint) -> [Diagnostic] {
        LargeStack.run { check(lint) }
    }

    /// A group with a space in it, quoted so the space shows (a trailing one
    /// was invisible, found on a real project).
    static func shown(_ group: String) -> String {
        group.isEmpty || group.contains(where: \.isWhitespace) ? "\"\(group)\"" : group
    }

    /// A branch of an `#if` in a file: the `#if` and which of its clauses.
    struct BranchKey: Hashable {
        var decl: Int, index: Int
    }

    /// Where a use stands in its file's `#if`s, as a finding says it.
    static func under(_ condition: String) -> String {
        condition == "#else" ? "under #else" : "under #if " + condition
    }

    /// A linked target or package module, as a finding names it.
    static func linked(_ t: XcodeProject.Target) -> String { t.linkedName }

    static func check(_ lint: ProjectLint) -> [Diagnostic] {
        // Targets past the settings budget are not resolved (ProjectLint says so).
        if lint.project.settingsBudgetExhausted { return [] }
        var render = ProjectDiagnostics(fileSystem: lint.fileSystem)
        /// The apps that embed a target and are signed by another team, by its ID.
        let otherTeamHosts = Dictionary(lint.signedByAnotherTeam().map { ($0.child.id, $0.hosts) }, uniquingKeysWith: { first, _ in first })
        // Merged across targets as they are made (``FindingMerger``).
        var out = FindingMerger(names: lint.project.targets.map(\.name))
        // Only files whose text can name a group are parsed for uses, and only
        // files whose text holds a name those uses look up are parsed for
        // constants; each once, however many targets compile it (Pocket Casts
        // compiles 1,079 files 2,364 times, and a handful name a group).
        /// Git submodules by folder, for the hint on a missing source.
        var gitmodules = ProjectPath.Submodules()
        /// Each real file's text (by its canonical path), and the bytes read.
        var texts: [String: String] = [:], readBytes = 0
        /// Which languages the read bytes were, for the budget's warning.
        var readSwift = false, readObjectiveC = false, budgetSaid = false
        /// Past `maxReadBytes`, said once, at the first file not read
        /// (headers spent it and later sources were skipped without a
        /// word; adversarial run 28, F7).
        func budgetSpent(at path: String) {
            guard !budgetSaid else { return }
            budgetSaid = true
            let language = readSwift && readObjectiveC ? "Swift and Objective-C" : readObjectiveC ? "Objective-C" : "Swift"
            out.append(render.diagnostic(ProjectIssue(
                .warning, "the code check has read \(maxReadBytes >> 20) MiB of \(language); '\(path)' and the files after it are not checked",
                at: ProjectLocation(file: path, line: 1), hint: "the groups they name, if any, are not checked"),
                code: .codeGroupNotCheckable))
        }
        var refused = Set<String>()
        var trees: [String: SourceFileSyntax] = [:]
        var declarations: [String: AccessGroupFinder.Declarations] = [:]
        // The identifiers of each file, once: asking each looked-up name of
        // each file's text was names × bytes.
        var wordsByPath: [String: Set<String>] = [:]
        func words(_ path: String, _ text: String) -> Set<String> {
            if let known = wordsByPath[path] { return known }
            var out = Set<String>()
            var word = ""
            for u in text.unicodeScalars {
                if u == "_" || u.properties.isAlphabetic || ("0"..."9").contains(u) {
                    word.unicodeScalars.append(u)
                } else if !word.isEmpty {
                    out.insert(word)
                    word = ""
                }
            }
            if !word.isEmpty { out.insert(word) }
            wordsByPath[path] = out
            return out
        }
        // Trees are kept for every target that compiles the file, some 50
        // bytes for each byte of source: past `maxParsedBytes` in all, files
        // are not parsed (eight hard links to one 1 MB file took 414 MB;
        // found by adversarial testing).
        var parsedBytes = 0
        func tree(_ path: String, _ text: String) -> SourceFileSyntax {
            if let known = trees[path] { return known }
            parsedBytes += text.utf8.count
            if parsedBytes > maxParsedBytes {
                if parsedBytes - text.utf8.count <= maxParsedBytes {
                    out.append(render.diagnostic(ProjectIssue(
                        .warning, "the code check has parsed \(maxParsedBytes >> 20) MiB of Swift; '\(path)' and the files after it are not checked",
                        at: ProjectLocation(file: path, line: 1), hint: "the groups they name, if any, are not checked"),
                        code: .codeGroupNotCheckable))
                }
                let empty = AccessGroupFinder.parse("")
                trees[path] = empty
                return empty
            }
            let t = AccessGroupFinder.parse(text)
            // What does not parse (nesting past the parser's limit, a syntax
            // error) may hide a call: said, not passed over in silence.
            if t.hasError, refused.insert(path).inserted {
                out.append(render.diagnostic(ProjectIssue(
                    .warning, "cannot fully check '\(path)': it does not parse as Swift (a syntax error, or code nested past \(maxNesting) levels)",
                    at: ProjectLocation(file: path, line: 1), hint: "the groups named in the part that does not parse, if any, are not checked"),
                    code: .codeGroupNotCheckable))
            }
            trees[path] = t
            return t
        }
        // Memo keys are small integers: a path once, a set of read files
        // once. Keys that spelled every path of the set, per file, took
        // files² × path length (2.9 GB for 1,000 files in a deep folder;
        // found by adversarial testing).
        var pathIDs: [String: Int] = [:], readSets: [[Int]: Int] = [:]
        func pathID(_ path: String) -> Int {
            if let known = pathIDs[path] { return known }
            pathIDs[path] = pathIDs.count
            return pathIDs.count - 1
        }
        func setID(_ paths: some Sequence<String>) -> Int {
            let key = paths.map(pathID).sorted()
            if let known = readSets[key] { return known }
            readSets[key] = readSets.count
            return readSets.count - 1
        }
        struct FileKey: Hashable { var file: Int, read: Int }
        /// Each parsed file's line table, made once: making it walks the
        /// whole tree, and each target walked it again for each walk.
        var converters: [String: SourceLocationConverter] = [:]
        func converter(_ path: String, _ tree: SourceFileSyntax) -> SourceLocationConverter {
            if let known = converters[path] { return known }
            let made = SourceLocationConverter(fileName: path, tree: tree)
            converters[path] = made
            return made
        }
        var usesBySources: [Int: [(path: String, uses: [AccessGroupUse])]] = [:]
        var objectiveCUses: [String: [(path: String, uses: [AccessGroupUse])]] = [:]
        var infoPlistStrings: [String: XcodeProject.InfoPlistString] = [:]
        /// Each Info.plist's keys, read and sorted once per file (its
        /// `INFOPLIST_FILE`), not per use (30 uses of a missing key in a
        /// 200,000-key Info.plist took 43 s; review 21, R17) nor per target
        /// (150 extensions sharing one kept 150 tables, 1.5 GB; adversarial
        /// run 28, F11).
        let infoPlistKeysMemo = XcodeProject.InfoPlistKeyTables()
        func infoPlistKeys(_ target: XcodeProject.Target, _ resolved: ResolvedTarget) -> (file: String, keys: [(key: String, location: ProjectLocation)]?)? {
            infoPlistKeysMemo.keys(of: resolved, in: lint.project)
        }
        var lookupsByPath: [String: Set<String>] = [:]
        /// Whether each file may name a group, asked once per file, not per target.
        var mayName: [String: Bool] = [:]
        /// The uses in a target's files, each resolved against the
        /// declarations of the files it compiles.
        var usesByFile: [FileKey: [AccessGroupUse]] = [:], chasedByFile: [FileKey: Set<String>] = [:]
        func resolveUses(_ sources: [(path: String, text: String)]) -> [(path: String, uses: [AccessGroupUse])] {
            let naming = sources.filter { source in
                if ObjectiveCSource.isObjectiveC(source.path) { return false }
                if let known = mayName[source.path] { return known }
                let answer = AccessGroupFinder.mayNameGroups(source.text)
                mayName[source.path] = answer
                return answer
            }
            var names = Set<String>()
            for (path, text) in naming {
                if lookupsByPath[path] == nil {
                    let t = tree(path, text)
                    lookupsByPath[path] = AccessGroupFinder().lookups(in: t, file: path, converter: converter(path, t))
                }
                names.formUnion(lookupsByPath[path] ?? [])
            }
            var finder = AccessGroupFinder()
            var added = Set<String>()
            func add(wanted: Set<String>) {
                // Objective-C files are no Swift to parse: their constants
                // reach Swift through ``resolveObjectiveC``. (Parsed as Swift,
                // past the pre-scan, a `.m` of 26 nested `[[…]]` took 55 s;
                // adversarial run 28, F12.)
                for (path, text) in sources where !added.contains(path) && !ObjectiveCSource.isObjectiveC(path)
                    && !wanted.isDisjoint(with: words(path, text)) {
                    if declarations[path] == nil {
                        // A file read only for its declarations is not kept.
                        declarations[path] = AccessGroupFinder.declarations(in: trees[path] ?? AccessGroupFinder.parse(text), file: path)
                    }
                    finder.add(declarations[path] ?? .init(), file: path)
                    added.insert(path)
                }
            }
            add(wanted: names)
            let usesIn = naming.map { ($0.path, tree($0.path, $0.text)) }
            // Types around uses that resolve to a constant, and what they
            // inherit, until no new type turns up: a property a superclass or
            // a conformance elsewhere declares shadows the constant. Only
            // those files are read (every enclosing type's name read 40 %
            // more of Element X's files).
            // A file's answers depend only on the declarations read beside it:
            // kept by file and that set, so targets that share a file and each
            // add one of their own that declares nothing it needs reuse them
            // (30 such targets and a 203 KB shared file took 27 s; found by
            // adversarial testing).
            // A walk finds the types to chase and the uses together: the
            // uses of the walk after which nothing new is read are the answer.
            var chased = Set<String>()
            var walked: [String: [AccessGroupUse]] = [:], walkedRead = -1
            for _ in 0..<16 {
                var wanted = Set<String>()
                let read = setID(added)
                walked = [:]
                walkedRead = read
                for (path, tree) in usesIn {
                    let key = FileKey(file: pathID(path), read: read)
                    if let types = chasedByFile[key] {
                        wanted.formUnion(types)
                        continue
                    }
                    let walk = finder.walk(tree, file: path, converter: converter(path, tree))
                    chasedByFile[key] = walk.typesToChase
                    walked[path] = walk.uses
                    wanted.formUnion(walk.typesToChase)
                }
                wanted.subtract(chased)
                if wanted.isEmpty { break }
                chased.formUnion(wanted)
                add(wanted: wanted)
            }
            let read = setID(added)
            return usesIn.map { path, tree in
                let key = FileKey(file: pathID(path), read: read)
                let uses = usesByFile[key] ?? (read == walkedRead ? walked[path] : nil)
                    ?? finder.walk(tree, file: path, converter: converter(path, tree)).uses
                usesByFile[key] = uses
                return (path: path, uses: uses)
            }
        }
        /// Each Objective-C file read, by path, and header, by real file
        /// (nil: unreadable or too large). A header kept by path was read
        /// again through each link to its own folder (`l/C.h`, `l/l/C.h`, …)
        /// until the read budget was spent (adversarial run 28, F7).
        var objectiveC: [String: ObjectiveCSource?] = [:]
        func objectiveCSource(_ path: String, text: String? = nil) -> ObjectiveCSource? {
            if let known = objectiveC[path] { return known }
            var made: ObjectiveCSource?
            if let text {
                let bytes = Array(text.utf8)
                // The text is the file's with each invalid byte read as
                // U+FFFD, three bytes: a file under 1 MiB can pass the
                // reader's cut, and its end went unread without a word
                // (adversarial run 28, F13).
                if bytes.count > ObjectiveCSource.maxBytes {
                    out.append(render.diagnostic(ProjectIssue(
                        .warning, "cannot fully check '\(path)': it is not valid UTF-8, and read with each invalid byte as U+FFFD it is larger than \(ObjectiveCSource.maxBytes >> 20) MiB",
                        at: ProjectLocation(file: path, line: 1), hint: "the groups named past its first MiB, if any, are not checked"),
                        code: .codeGroupNotCheckable))
                }
                made = ObjectiveCSource(bytes, cPlusPlus: ObjectiveCSource.isCPlusPlus(path))
            } else if readBytes > maxReadBytes {
                budgetSpent(at: path)
            } else if (lint.fileSystem.fileSize(path) ?? 0) <= maxFileBytes,
                      case .success(let bytes) = lint.fileSystem.read(path), bytes.count <= maxFileBytes {
                // (A header's size is asked first: a 200 MB one is not read.)
                readBytes += bytes.count
                readObjectiveC = true
                made = ObjectiveCSource(bytes, cPlusPlus: ObjectiveCSource.isCPlusPlus(path))
            }
            objectiveC[path] = .some(made)
            return made
        }
        /// The macros any configuration of any target defines in its
        /// `GCC_PREPROCESSOR_DEFINITIONS` (`IS_ALPHA`, `DEBUG`): a build
        /// that lacks one has it undefined. Worked out once.
        var flagsMemo: Set<String>?
        func projectFlags() -> Set<String> {
            if let flagsMemo { return flagsMemo }
            var flags = Set<String>(), seen = Set<String>()
            for s in lint.signings {
                let list = s.resolved.settings.value(of: "GCC_PREPROCESSOR_DEFINITIONS").value
                guard seen.insert(list).inserted, seen.count <= 1_000 else { continue }
                flags.formUnion(ObjectiveCSource.definitions(list).keys)
            }
            flagsMemo = flags
            return flags
        }
        /// The names in each folder, listed once: a header is looked for
        /// only in the folders that list it, as Xcode's header map finds it
        /// by name (a look in each folder for each header spent the 4,000
        /// looks on misses; adversarial run 28, F10).
        var listings: [String: Set<String>] = [:]
        func lists(_ folder: String, _ name: String) -> Bool {
            let first = String(name.prefix { $0 != "/" })
            if first.isEmpty || first == "." || first == ".." { return true }
            if let known = listings[folder] { return known.contains(first) }
            let names = Set(lint.fileSystem.contents(ofDirectory: folder) ?? [])
            listings[folder] = names
            return names.contains(first)
        }
        /// The header search stopped at its bound: said once.
        var headerBoundSaid = false
        func headerSearchStopped(after count: Int, at name: String, importedIn folder: String, file: String) {
            guard !headerBoundSaid else { return }
            headerBoundSaid = true
            out.append(render.diagnostic(ProjectIssue(
                .warning, "the code check has read \(count) headers of the Objective-C code; '\(name)', imported in '\(folder)', and the headers after it are not read",
                at: ProjectLocation(file: file, line: 1),
                hint: "the constants and macros they define are not known: values that name them are not checked"),
                code: .codeGroupNotCheckable))
        }
        /// The uses in a target's Objective-C files, and its Swift uses of a
        /// name its Objective-C code defines (a constant of the bridging
        /// header), resolved against the constants and macros of those files,
        /// of the headers they import (`#import "Constants.h"`, found beside
        /// the importing file or any of the target's Objective-C files; at
        /// most 2,000 headers) and of the build's `GCC_PREPROCESSOR_DEFINITIONS`.
        func resolveObjectiveC(_ sources: [(path: String, text: String)], swift: [(path: String, uses: [AccessGroupUse])],
                               macros: [String: String], definitions: [String: String]) -> [(path: String, uses: [AccessGroupUse])] {
            let files = sources.filter { ObjectiveCSource.isObjectiveC($0.path) }
            let wanted = swift.contains { $0.uses.contains { $0.undeclaredName != nil } }
            guard !files.isEmpty || wanted else { return swift }
            // Constants by where they are seen: a file's own (its `#define`s
            // and `static` constants, and all of its others), the headers'
            // (each header any of the files imports), and the `.m` files'
            // constants other files see (`NSString *const X`, no `static`).
            typealias Defined = (constant: ObjectiveCSource.Constant, file: String)
            var fromHeaders: [String: Defined] = [:], shared: [String: Defined] = [:]
            var headerStringifiers = ObjectiveCSource.sdkStringifiers
            var folders: [String] = [], seenFolders = Set<String>()
            for f in files where seenFolders.insert(ProjectPath.directory(f.path)).inserted && folders.count < 200 { folders.append(ProjectPath.directory(f.path)) }
            // Each `(name, from)` queued once: 1 MiB of one repeated
            // `#import` looked in 200 folders for each line (60 s;
            // adversarial run 28, F1).
            var queue: [(name: String, from: String)] = [], queued = Set<String>()
            func imports(_ source: ObjectiveCSource, _ path: String) {
                let from = ProjectPath.directory(path)
                for i in source.imports where ProjectPath.lastComponent(i).hasSuffix(".h") && queued.insert(from + "\u{0}" + i).inserted {
                    queue.append((i, from))
                }
            }
            for f in files {
                guard let s = objectiveCSource(f.path, text: f.text) else { continue }
                for (name, c) in s.constants where c.shared && shared[name] == nil { shared[name] = (c, f.path) }
                imports(s, f.path)
            }
            // Headers: looked for beside the importer, then in the folders
            // (each name once), each real file read once; at most
            // `maxHeaders` headers and `maxHeaderLooks` places that list them.
            let maxHeaders = 2000, maxHeaderLooks = 20_000
            var read = Set<String>(), looks = 0, inFolders: [String: String?] = [:]
            var stopped: (name: String, from: String)?
            /// The real file of the header at `candidate`, read if new (nil: none there).
            func header(_ candidate: String) -> String? {
                looks += 1
                let real = lint.fileSystem.canonical(candidate)
                if read.contains(real) { return real }
                guard let source = objectiveCSource(real) else { return nil }
                read.insert(real)
                for (n, c) in source.constants where fromHeaders[n] == nil { fromHeaders[n] = (c, candidate) }
                for (n, m) in source.stringifiers where headerStringifiers.count < 1_000 && headerStringifiers[n] == nil { headerStringifiers[n] = m }
                imports(source, candidate)
                return real
            }
            var next = 0
            while next < queue.count {
                let (name, from) = queue[next]
                next += 1
                if read.count >= maxHeaders || looks >= maxHeaderLooks {
                    stopped = (name, from)
                    break
                }
                if lists(from, name), header(ProjectPath.join(from, name)) != nil { continue }
                if inFolders[name] != nil { continue }
                var found: String?
                for folder in folders where folder != from && looks < maxHeaderLooks && lists(folder, name) {
                    found = header(ProjectPath.join(folder, name))
                    if found != nil { break }
                }
                inFolders[name] = .some(found)
            }
            if let stopped {
                headerSearchStopped(after: read.count, at: stopped.name, importedIn: stopped.from, file: files.first?.path ?? stopped.from)
            }
            let shown = stopped == nil
                ? "which kcs finds no definition of in the target's Objective-C code, the headers it imports or GCC_PREPROCESSOR_DEFINITIONS (another module's, or a macro the build defines elsewhere)"
                : "which kcs finds no definition of in the headers it read (it stopped after \(read.count) headers; the others may define it)"
            /// Values worked out in one table, each name once (a macro of
            /// eight copies of the next, nested, was exponential; review 21, R1).
            struct Resolver {
                let own: [String: Defined], headers: [String: Defined], shared: [String: Defined], macros: [String: String]
                /// The build's macros, and those any build of the project
                /// defines: what decides a macro's `#if` branch.
                let definitions: [String: String], flags: Set<String>
                /// The function-like macros that make a string (``ObjectiveCSource/Stringifier``).
                let stringifiers: [String: ObjectiveCSource.Stringifier]
                /// Each name's answer and its height: the macros nested from
                /// it down, itself included. An answer is kept only when no
                /// bound cut it, and used at a depth only when its height fits
                /// under ``maxDepth`` from there: a cut answer kept for every
                /// name on the path, or a whole one used deeper than it fits,
                /// made the answer depend on the order of uses (adversarial
                /// run 28, F4).
                var memo: [String: (value: AccessGroupUse.Value, constant: (file: String, line: Int)?, height: Int)] = [:]
                var work = 0
                /// Bounds met so far (depth or work): an answer worked out
                /// while one was met is not kept.
                var cuts = 0
                /// The deepest level the current name's answer reached.
                var reached = 0
                static let maxDepth = 16
                /// The answer all files share for a name none of them
                /// shadows, or nil (``resolveObjectiveC``).
                var common: ((String) -> (value: AccessGroupUse.Value, constant: (file: String, line: Int)?, height: Int)?)?
                func defined(_ name: String) -> Defined? { own[name] ?? headers[name] ?? shared[name] }
                /// The definition this build compiles: the last whose branches
                /// all hold (a later `#define` replaces an earlier one); nil when
                /// a condition cannot be answered, or none holds.
                func branch(_ branches: [ObjectiveCSource.Branch]) -> ObjectiveCSource.Branch? {
                    var chosen: ObjectiveCSource.Branch?
                    for b in branches {
                        var holds: Bool? = true
                        for level in b.levels where holds == true {
                            for c in level.previous where holds == true {
                                switch c.holds(definitions, flags: flags) {
                                case true?: holds = false
                                case false?: break
                                case nil: holds = nil
                                }
                            }
                            if holds == true, let current = level.current { holds = current.holds(definitions, flags: flags) }
                        }
                        guard let holds else { return nil }
                        if holds { chosen = b }
                    }
                    return chosen
                }
                mutating func resolve(_ e: ObjectiveCSource.Expression, shown: String, depth: Int = 0) -> (value: AccessGroupUse.Value, constant: (file: String, line: Int)?) {
                    switch e {
                    case .runtime(let written): return (.runtime(written), nil)
                    case .parameter(let name, let owner):
                        return (.unfollowed("its parameter `\(name)` (of `\(owner)`), whose callers kcs does not follow", .parameter), nil)
                    case .infoPlist(let key):
                        // The key worked out, then read as Swift's read is:
                        // the target's Info.plist value (review 21, R8).
                        let r = resolve(.parts([key]), shown: shown, depth: depth + 1)
                        guard case .literal(let k) = r.value else { return r }
                        return (.literal(AccessGroupFinder.infoPlistMarked((k, nil))), nil)
                    case .parts(let parts):
                        var text = "", from: (file: String, line: Int)?
                        for part in parts {
                            work += 1
                            switch part {
                            case .literal(let l): text += l
                            case .call(let macro, let argument):
                                // `S(NAME)` of a stringifier: the name's value as the
                                // build defines it, or the name itself when no macro
                                // expands it first (real-project trial 23, D10).
                                var current = stringifiers[macro], expands = false, steps = 0
                                while case .expanding(let next)? = current, steps < 8 {
                                    expands = true
                                    current = stringifiers[next]
                                    steps += 1
                                }
                                guard current == .direct else { return (.runtime("\(macro)(\(argument))"), nil) }
                                if !expands {
                                    text += argument
                                } else if let value = definitions[argument], !value.hasPrefix("\"") {
                                    text += value
                                } else {
                                    return (.unfollowed("`\(argument)` (made a string by \(macro)), " + shown), nil)
                                }
                            case .name(let name):
                                var inner: (value: AccessGroupUse.Value, constant: (file: String, line: Int)?)
                                let known = memo[name] ?? (own[name] == nil ? common?(name) : nil)
                                if let known, depth + known.height <= Self.maxDepth {
                                    inner = (known.value, known.constant)
                                    memo[name] = known
                                    reached = max(reached, depth + known.height)
                                } else if defined(name) != nil, known != nil || depth >= Self.maxDepth {
                                    // Too deep from here, whatever it is from nearer.
                                    cuts += 1
                                    return (.unfollowed("a value of macros nested more than \(Self.maxDepth) deep, which kcs does not follow"), nil)
                                } else if let c = defined(name), work < 100_000 {
                                    let (cutsBefore, reachedBefore) = (cuts, reached)
                                    reached = depth + 1
                                    defer { reached = max(reached, reachedBefore) }
                                    // Marked first: a macro that names itself is code.
                                    memo[name] = (.runtime(name), nil, 1)
                                    // A value per `#if` branch: the one this build's
                                    // macros choose (real-project trial 23, D3).
                                    var expression = c.constant.expression, line = c.constant.line, undecided = false
                                    if !c.constant.branches.isEmpty, case .runtime = expression {
                                        if let chosen = branch(c.constant.branches) {
                                            (expression, line) = (chosen.expression, chosen.line)
                                        } else {
                                            undecided = true
                                        }
                                    }
                                    if undecided {
                                        let values = Set(c.constant.branches.map(\.expression)).count
                                        inner = (.unfollowed("`\(name)`, which its #if branches define with \(values) values, " + CodeCheck.branchUndecided, .undecidedBranch), nil)
                                    } else {
                                        inner = resolve(expression, shown: shown, depth: depth + 1)
                                        if case .literal = inner.value { inner.constant = inner.constant ?? (c.file, line) }
                                    }
                                    memo[name] = cuts == cutsBefore ? (inner.value, inner.constant, reached - depth) : nil
                                } else if let m = macros[name] {
                                    inner = (.literal(m), nil)
                                } else if defined(name) != nil {
                                    cuts += 1
                                    inner = (.runtime(name), nil)
                                } else {
                                    return (.unfollowed("`\(name)`, " + shown), nil)
                                }
                                guard case .literal(let v) = inner.value else {
                                    if case .runtime = inner.value { return (.runtime(name), nil) }
                                    return inner
                                }
                                text += v
                                from = from ?? inner.constant
                            }
                            // A value past a group's length is no group to check.
                            if text.utf8.count > 4096 { return (.runtime(parts.count == 1 ? "\(parts[0])" : "a joined value"), nil) }
                        }
                        return (.literal(text), parts.count == 1 ? from : nil)
                    }
                }
            }
            var out = swift
            // One resolver for every Swift use: each name worked out once.
            let flags = projectFlags()
            var forSwift = Resolver(own: [:], headers: fromHeaders, shared: shared, macros: macros, definitions: definitions, flags: flags,
                                    stringifiers: headerStringifiers)
            // A name whose value reaches no name any file defines itself
            // (a header's macro) is worked out once, in `forSwift`, for every
            // file: each `.m`'s resolver walked a 524,000-part macro again
            // (600 files took 48 s; adversarial run 28, F2).
            var anyOwn = Set<String>()
            for f in files {
                guard let source = objectiveCSource(f.path, text: f.text), !source.uses.isEmpty else { continue }
                anyOwn.formUnion(source.constants.keys)
                anyOwn.formUnion(source.stringifiers.keys)
            }
            var pure: [String: Bool] = [:]
            func isPure(_ name: String, depth: Int) -> Bool {
                if let known = pure[name] { return known }
                if anyOwn.contains(name) || depth > 16 { return false }
                // Taken to be pure while its parts are asked (a cycle ends).
                pure[name] = true
                var answer = true
                // Every name its definitions reach: each `#if` branch's, a
                // stringify macro and its argument, an Info.plist key's name.
                if let c = fromHeaders[name] ?? shared[name] {
                    var asked = Set<String>()
                    var parts: [ObjectiveCSource.Part] = []
                    for e in [c.constant.expression] + c.constant.branches.map(\.expression) {
                        switch e {
                        case .parts(let p): parts += p
                        case .infoPlist(let p): parts.append(p)
                        case .runtime, .parameter: break
                        }
                    }
                    reach: for part in parts {
                        let names: [String] = switch part {
                        case .literal: []
                        case .name(let n): [n]
                        case .call(let f, let argument): [f, argument]
                        }
                        for n in names where asked.insert(n).inserted && !isPure(n, depth: depth + 1) {
                            answer = false
                            break reach
                        }
                    }
                }
                pure[name] = answer
                return answer
            }
            func common(_ name: String) -> (value: AccessGroupUse.Value, constant: (file: String, line: Int)?, height: Int)? {
                guard isPure(name, depth: 0) else { return nil }
                _ = forSwift.resolve(.parts([.name(name)]), shown: shown)
                return forSwift.memo[name]
            }
            for i in out.indices {
                for j in out[i].uses.indices {
                    guard let name = out[i].uses[j].undeclaredName, fromHeaders[name] != nil || shared[name] != nil || macros[name] != nil else { continue }
                    let r = forSwift.resolve(.parts([.name(name)]), shown: shown)
                    out[i].uses[j].value = r.value
                    out[i].uses[j].constant = r.constant
                    out[i].uses[j].undeclaredName = nil
                }
            }
            for f in files {
                guard let source = objectiveCSource(f.path, text: f.text), !source.uses.isEmpty else { continue }
                var resolver = Resolver(own: source.constants.mapValues { ($0, f.path) }, headers: fromHeaders, shared: shared, macros: macros,
                                        definitions: definitions, flags: flags,
                                        stringifiers: source.stringifiers.merging(headerStringifiers) { own, _ in own })
                resolver.common = common
                let uses = source.uses.map { u in
                    let r = resolver.resolve(u.expression, shown: shown)
                    var use = AccessGroupUse(value: r.value, api: u.api, line: u.line, column: u.column, length: u.length, constant: r.constant)
                    use.isAppGroup = u.isAppGroup
                    use.enclosingName = u.enclosingName
                    use.fileKeychainOnMac = u.fileKeychainOnMac
                    return use
                }
                out.append((f.path, uses))
            }
            return out
        }
        // Who holds which access group, per configuration, worked out once
        // (each finding filtered every signing: 400 targets sharing a
        // framework took 33 s; found by adversarial testing).
        var holders: [String: [String: [String]]] = [:]
        func holdersByGroup(_ configuration: String) -> [String: [String]] {
            if let known = holders[configuration] { return known }
            var table: [String: [String]] = [:]
            for s in lint.signings where s.configuration == configuration {
                for g in Set(s.accessGroups) where !(table[g]?.contains(s.target.name) ?? false) { table[g, default: []].append(s.target.name) }
            }
            holders[configuration] = table
            return table
        }
        // Each target's entitlements file, per configuration: a target that
        // signs with another's file is no second witness for its spelling
        // (real-project trial 23, D2).
        var signingFiles: [String: [String: String]] = [:]
        func signingFile(_ target: String, _ configuration: String) -> String? {
            if signingFiles[configuration] == nil {
                var table: [String: String] = [:]
                for s in lint.signings where s.configuration == configuration {
                    if let path = s.resolved.entitlementsPath { table[s.target.name] = lint.fileSystem.canonical(path) }
                }
                signingFiles[configuration] = table
            }
            return signingFiles[configuration]?[target]
        }
        // A framework's build conditions, by framework, configuration and the
        // platforms built for: shared by every app that links it (apps ×
        // frameworks resolutions; found by adversarial testing).
        var conditionsMemo: [String: BuildConditions] = [:]
        // Each `#if`'s answer under one build's conditions, kept with them:
        // shared by every app that links the framework (each app answered
        // every framework's conditions again: 5,000 uses × 300 frameworks ×
        // 10 apps took 30 s; found by adversarial testing).
        var answeredMemo: [String: [String: BuildConditions.Answered]] = [:]
        var unreadable = Set<String>()
        /// Sources CocoaPods writes (`Pods/Target Support Files/…`), absent
        /// until `pod install`: one warning for every target, as for its
        /// xcconfig files (Rocket.Chat's ExpoModulesProvider.swift was said
        /// once per target; real-project trial 18, W5).
        var podsSources: [(path: String, of: String, at: ProjectLocation?, hint: String)] = []
        /// How many targets compile each source, worked out once, when asked.
        var compilerCounts: [String: Int]?
        func compilers(of path: String) -> Int? {
            if compilerCounts == nil {
                var counts: [String: Int] = [:]
                for t in lint.project.targets { for p in Set(t.swiftSources.map(ProjectPath.normalize)) { counts[p, default: 0] += 1 } }
                compilerCounts = counts
            }
            return compilerCounts?[ProjectPath.normalize(path)]
        }
        /// The keychain groups each target's code names, for ``sharesOnlyAnAppGroup``.
        var keychainNaming: [String: KeychainNaming] = [:]
        /// Places of the code (calls, a constant's values) this
        /// configuration's `#if`s leave out that other configurations
        /// compile, and those configurations: said in one note, since their
        /// groups go unchecked (2FAS's typo in the `#else` of `#if DEV`,
        /// which only 'Production' compiles, gave "no warnings"; real-project
        /// trial 22, W2). Each target's other builds worked out once.
        var otherPlaces: [ProjectLocation] = [], otherPlaceSet = Set<String>(), otherConfigurations: [String] = []
        var otherConditions: [String: BuildConditions] = [:], otherAnswered: [String: [String: BuildConditions.Answered]] = [:]
        for target in lint.project.targets where target.kind != nil {
            guard let signing = lint.signing(of: target), let app = signing.appTarget else { continue }
            // An entitlements file named but unreadable grants nothing kcs
            // knows of: its code is not judged against nothing (every group
            // was a sure KCS607; the file's own warning says why; found by
            // adversarial testing).
            if signing.resolved.entitlementsPath != nil && signing.entitlements == nil { continue }
            var sources: [(path: String, text: String)] = []
            // Its own sources and those of the frameworks it links: their
            // calls run with this target's entitlements.
            let code = lint.code(of: target)
            // Each real file once, however many paths (links) lead to it,
            // and its text kept once: 1,500 links to a 1 MB file were read
            // and kept 1,500 times twice over (2.4 GB; found by adversarial
            // testing).
            var realFiles = Set<String>()
            /// Sources that cannot be read, with whose they are and the hint.
            var missing: [(path: String, of: String, hint: String)] = []
            for path in code.swiftSources.prefix(maxFiles) {
                let real = lint.fileSystem.canonical(path)
                guard realFiles.insert(real).inserted else { continue }
                if texts[real] == nil {
                    if refused.contains(real) || unreadable.contains(path) { continue }
                    if readBytes > maxReadBytes {
                        budgetSpent(at: path)
                        continue
                    }
                    // A file too large to check is refused on its size, not
                    // read and not counted: a 70 MB one spent the read budget
                    // and hid every later file's findings (adversarial run 28,
                    // F5). Up to 16 MiB it is read to ask whether it may name
                    // a group (a large generated file is said nothing of).
                    if let size = lint.fileSystem.fileSize(path), size > ProjectLint.maxReadableSourceBytes {
                        // (At the file, no line: a line's excerpt would read it.)
                        if refused.insert(real).inserted {
                            out.append(render.diagnostic(ProjectIssue(
                                .warning, "cannot check '\(path)': it is larger than \(maxFileBytes >> 20) MiB", at: ProjectLocation(file: path, line: 0),
                                hint: "the groups it names, if any, are not checked"), code: .codeGroupNotCheckable))
                        }
                        continue
                    }
                    let read = lint.fileSystem.read(path)
                    guard case .success(let bytes) = read else {
                        // Once per file, however many targets link the framework
                        // that lists it (found on a real-project check).
                        guard unreadable.insert(path).inserted else { continue }
                        // At the target, where the project lists it (ProtonVPN's
                        // generated ObfuscatedConstants.swift had no location).
                        let hint = ProjectPath.template(of: path, in: lint.fileSystem).map {
                            ProjectPath.copyAdvice($0, to: path) + "; its groups are not checked"
                        } ?? ProjectPath.generatedBy(path).map { $0 + "its groups are not checked" }
                          ?? ProjectPath.submodule(of: path, in: lint.fileSystem, known: &gitmodules).map {
                            "it is in the git submodule \($0), not checked out: run `git submodule update --init`; its groups are not checked"
                        } ?? "a file the build generates, or one in a git submodule not checked out (git submodule update --init), is absent from a fresh clone; its groups are not checked"
                        missing.append((path, code.owner[path].map { "\(Self.linked($0)), which '\(target.name)' links" } ?? "target '" + target.name + "'", hint))
                        continue
                    }
                    if bytes.count <= maxFileBytes {
                        if ObjectiveCSource.isObjectiveC(path) { readObjectiveC = true } else { readSwift = true }
                        readBytes += bytes.count
                        if readBytes > maxReadBytes {
                            budgetSpent(at: path)
                            continue
                        }
                    }
                    // Objective-C is read token by token, linear in any input:
                    // only its size is bounded.
                    if let why = ObjectiveCSource.isObjectiveC(path) ? (bytes.count > maxFileBytes ? "it is larger than \(maxFileBytes >> 20) MiB" : nil)
                        : refusal(bytes) {
                        // Said only of a file that may name a group: one that
                        // cannot is no loss (an 8 MiB generated file got a
                        // false KCS608; found by review).
                        if refused.insert(real).inserted, AccessGroupFinder.mayNameGroups(String(decoding: bytes, as: UTF8.self), sameLine: true) {
                            out.append(render.diagnostic(ProjectIssue(
                                .warning, "cannot check '\(path)': \(why)", at: ProjectLocation(file: path, line: 1),
                                hint: "the groups it names, if any, are not checked"), code: .codeGroupNotCheckable))
                        }
                        continue
                    }
                    texts[real] = String(decoding: bytes, as: UTF8.self)
                }
                if let text = texts[real] { sources.append((path, text)) }
            }
            // Said once per owner and hint, naming the first: one absent
            // folder made 19 warnings alike at one line (ios-pass;
            // real-project trial 14, D8).
            var alike: [(of: String, hint: String, paths: [String])] = []
            for m in missing {
                if ProjectPath.isCocoaPodsSupportFile(m.path) {
                    podsSources.append((m.path, m.of, target.location, m.hint))
                    continue
                }
                if let i = alike.firstIndex(where: { $0.of == m.of && $0.hint == m.hint }) { alike[i].paths.append(m.path) } else { alike.append((m.of, m.hint, [m.path])) }
            }
            for g in alike {
                out.append(render.diagnostic(ProjectIssue(
                    .warning, g.paths.count == 1 ? "cannot read '\(g.paths[0])', a source of \(g.of)"
                        : "cannot read \(g.paths.count) sources of \(g.of), the first of them '\(g.paths[0])'",
                    at: target.location, hint: g.hint),
                    code: .projectSetting))
            }
            // Targets that compile the same files find the same uses: the
            // resolution is made once per set of files (30 targets sharing
            // one 250 KB file resolved it 30 times, 35 s; found by
            // adversarial testing). Only the verdicts are the target's.
            let key = setID(sources.map(\.path))
            var found: [(path: String, uses: [AccessGroupUse])]
            if let known = usesBySources[key] {
                found = known
            } else {
                found = resolveUses(sources)
                usesBySources[key] = found
            }
            // Objective-C's uses, and Swift's of its constants, depend on the
            // build's macros too: worked out per set of files and macros.
            let definitions = signing.resolved.settings.value(of: "GCC_PREPROCESSOR_DEFINITIONS").value
            let objectiveCKey = "\(key)\u{0}" + definitions
            if let known = objectiveCUses[objectiveCKey] {
                found = known
            } else {
                found = resolveObjectiveC(sources, swift: found, macros: ObjectiveCSource.stringMacros(fromDefinitions: definitions),
                                          definitions: ObjectiveCSource.definitions(definitions))
                objectiveCUses[objectiveCKey] = found
            }
            keychainNaming[target.id] = KeychainNaming(found)
            let granted = app.accessGroups
            // What `#if` this build compiles: for each platform the target
            // builds for, the flags of the target whose code it is (a linked
            // framework's own), each `#if` answered once for the target.
            let platforms = lint.project.platforms(of: target, configuration: signing.configuration).platforms
            let others = lint.project.otherPlatforms(of: target, configuration: signing.configuration)
            func conditionsKey(for codeTarget: XcodeProject.Target) -> String {
                codeTarget.id == target.id
                    ? "own\u{0}" + target.id + "\u{0}" + signing.configuration
                    : codeTarget.id + "\u{0}" + signing.configuration + "\u{0}" + platforms.joined(separator: ",") + "\u{0}" + others.joined(separator: ",")
            }
            func conditions(for codeTarget: XcodeProject.Target) -> BuildConditions {
                let key = conditionsKey(for: codeTarget)
                if let known = conditionsMemo[key] { return known }
                var builds: [BuildConditions.Build] = []
                // A package's module has no build settings of the project's:
                // its flags (the package's `.define`s, and DEBUG as Xcode
                // builds it) are not known; its platforms are the app's.
                for p in platforms.isEmpty ? [signing.resolved.platform] : platforms {
                    if codeTarget.isPackageModule {
                        builds.append(BuildConditions.Build(platform: p, flags: nil))
                        continue
                    }
                    let r = p == signing.resolved.platform && codeTarget.id == target.id
                        ? signing.resolved : lint.project.resolve(codeTarget, configuration: signing.configuration, platform: p)
                    builds.append(BuildConditions.Build(platform: p, flags: Self.flags(r)))
                }
                // Platforms kcs does not model: their flags are not read.
                builds += others.map { BuildConditions.Build(platform: $0, flags: nil) }
                let c = BuildConditions(builds: builds)
                conditionsMemo[key] = c
                return c
            }
            let build = conditions(for: target), buildKey = conditionsKey(for: target)
            let buildsForMac = lint.project.platforms(of: target, configuration: signing.configuration).platforms.contains("macos")
            // Each once, in order, through a set: 15,000 groups made this
            // and each use's test quadratic (found by adversarial testing).
            var grantedSet = Set<String>(), grantedOnce: [String] = []
            for g in granted where grantedSet.insert(g).inserted { grantedOnce.append(g) }
            // No team: a group written `$(AppIdentifierPrefix)x` expands to
            // `x`, and the app ID is not known. Code naming `T.x` (or
            // `T.BUNDLEID`) holds it if the team is T: no call is judged
            // against a team kcs was not given, which KCS602 already says is
            // missing, nor is a half-expanded value shown as a group
            // (sphinx's 8297M44YTW.sphinxSharedItems; real-project trial 15, D3).
            var teamless: [String: String] = [:]
            if app.teamID == nil {
                for (raw, expanded) in zip(signing.entitlements?.keychainAccessGroups ?? [], signing.keychainAccessGroups)
                where raw.contains("AppIdentifierPrefix") || raw.contains("TeamIdentifierPrefix") {
                    teamless[expanded.value] = raw
                }
                teamless[app.bundleID] = teamless[app.bundleID] ?? "$(AppIdentifierPrefix)" + app.bundleID
            }
            func heldUnderSomeTeam(_ group: String) -> Bool {
                guard !teamless.isEmpty, let rest = Team.withoutPrefix(group) else { return false }
                return teamless[String(rest)] != nil
            }
            let groups = grantedOnce.isEmpty ? "none (the target is unsigned)" : grantedOnce.map { teamless[$0] ?? $0 }.joined(separator: ", ")
            // Whether a source the target compiles or links, other than the
            // use's own file, names a type or function of a framework's code,
            // by name, found once per name and file.
            var namedElsewhere: [String: Bool] = [:]
            for (path, uses) in found {
                // A linked framework's file says whose it is.
                let via = code.owner[path].map { " (in \(Self.linked($0)), which it links)" } ?? ""
                // A framework's call in a type (or function) none of the
                // target's own sources names may never run in it: a note,
                // not a warning that stays whatever is fixed (Siskin's share
                // extension links Shared, whose NotificationEncryptionKeys
                // uses a group the extension lacks; real-project trial 19, W12).
                // The framework's own other code counts: a type its other
                // files call runs in the target all the same (review 19, R8).
                func unnamed(_ use: AccessGroupUse) -> String? {
                    guard !via.isEmpty, let name = use.enclosingName else { return nil }
                    let key = name + "\u{0}" + path
                    if namedElsewhere[key] == nil {
                        namedElsewhere[key] = sources.contains { $0.path != path && Self.namesWord(name, in: $0.text) }
                    }
                    return namedElsewhere[key] == true ? nil : name
                }
                func unnamedHint(_ name: String) -> String {
                    "no other source '\(target.name)' compiles or links names \(name), whose code this call is in, so it may never make it (a note, not a warning); "
                }
                // Who a finding is about: the words ``FindingMerger`` reads back.
                let who = "target '\(target.name)' (configuration '\(signing.configuration)')" + via
                // A framework's `#if`s are its own build's: its flags, the app's
                // platforms; a file several of them compile, each one's (the
                // second's wrong group was missed; found by adversarial testing).
                // Compilers with the same conditions answer alike: asked once
                // (300 frameworks with 7 sets of flags were asked 300 times).
                var distinct = Set<BuildConditions>()
                let builds: [(key: String, conditions: BuildConditions)] = (code.compilers[path].map { list in
                    list.map { t in t.id == target.id ? (buildKey, build) : (conditionsKey(for: t), conditions(for: t)) }
                } ?? [code.owner[path].map { (conditionsKey(for: $0), conditions(for: $0)) } ?? (buildKey, build)])
                    .filter { distinct.insert($0.conditions).inserted }
                // Uses under the same `#if` branches share one verdict: asked
                // per use, each asked every compiler again (found by
                // adversarial testing).
                var verdicts: [[BranchKey]: Bool?] = [:]
                for use in uses {
                    // Under `#if`: skipped when this build does not compile it,
                    // checked as any call when it does, "cannot tell" otherwise.
                    // Compiled when one build compiles it; not when none does.
                    let compiled: Bool? = use.condition == nil ? true : {
                        let key = use.branches.map { BranchKey(decl: $0.decl, index: $0.index) }
                        if let known = verdicts[key] { return known }
                        let answers = builds.map { $0.conditions.compiles(use.branches, in: path, answered: &answeredMemo[$0.key, default: [:]]) }
                        let verdict: Bool? = answers.contains(true) ? true : answers.allSatisfy { $0 == false } ? false : nil
                        verdicts[key] = verdict
                        return verdict
                    }()
                    let at = ProjectLocation(file: path, line: use.line, column: use.column)
                    /// A place of the target's own code under `#if` branches
                    /// this configuration leaves out: the configurations whose
                    /// flags compile it, kept for the note.
                    func compiledElsewhere(_ branches: [IfBranch], in file: String, at place: ProjectLocation) {
                        // With the flags of the target whose code it is (a
                        // linked framework's own; a package's are not known).
                        let owner = code.owner[file] ?? target
                        guard !owner.isPackageModule else { return }
                        var compiling: [String] = []
                        for other in owner.configurations.map(\.name) where other != signing.configuration {
                            let key = owner.id + "\u{0}" + other
                            let conditions = otherConditions[key] ?? BuildConditions(
                                platform: signing.resolved.platform,
                                flags: Self.flags(lint.project.resolve(owner, configuration: other, platform: signing.resolved.platform)))
                            otherConditions[key] = conditions
                            if conditions.compiles(branches, in: file, answered: &otherAnswered[key, default: [:]]) == true { compiling.append(other) }
                        }
                        guard !compiling.isEmpty else { return }
                        for c in compiling where !otherConfigurations.contains(c) { otherConfigurations.append(c) }
                        if otherPlaceSet.insert("\(place.file)\u{0}\(place.line)").inserted { otherPlaces.append(place) }
                    }
                    if compiled == false {
                        compiledElsewhere(use.branches, in: path, at: at)
                        continue
                    }
                    // A Mac build: without the data-protection flag the call
                    // goes to the file-based keychain, which ignores the group
                    // (SecItem.cpp SecItemCategorizeQuery): it is not shared
                    // through it, and no group is refused (found on a
                    // real-project trial: Bitkit's macOS app).
                    // A target that also builds for the Mac (its first
                    // platform is checked below) is said so for a call every
                    // build compiles (Bitkit's app; found on a real-project trial).
                    let macOnly = signing.resolved.platform == "macos"
                    if use.fileKeychainOnMac, macOnly || use.condition == nil && buildsForMac {
                        // A value built at run time may be nil there (NetNewsWire's
                        // Info.plist `AppGroup`, absent from the Mac app's): said
                        // as a condition, not as a group passed (real-project trial 24, W2).
                        var passes = "passes kSecAttrAccessGroup"
                        if case .runtime(let text) = use.value { passes = "passes kSecAttrAccessGroup, when \(text) (built at run time) holds a group," }
                        out.append(render.diagnostic(ProjectIssue(
                            .warning, "\(who) \(passes) in a dictionary without kSecUseDataProtectionKeychain: on macOS the call goes to the file-based keychain, which ignores the access group",
                            at: at, hint: "add kSecUseDataProtectionKeychain as String: true (macOS 10.15 and later) for the group to count, as on iOS; a query without it searches the file-based keychain too"),
                            code: .codeFileKeychainGroup, length: use.length))
                        if macOnly { continue }
                    }
                    var notes: [DiagnosticNote] = []
                    if let c = use.constant { notes.append(render.note(Self.constantNote, at: ProjectLocation(file: c.file, line: c.line))) }
                    var value = use.value
                    // A constant with a value per `#if` branch: the one this
                    // build compiles, when the build answers which.
                    if !use.alternatives.isEmpty, let first = builds.first {
                        var chosen: [AccessGroupUse.Alternative] = [], unknown = false
                        for alt in use.alternatives {
                            switch first.conditions.compiles(alt.branches, in: alt.file, answered: &answeredMemo[first.key, default: [:]]) {
                            case true?: chosen.append(alt)
                            case false?: break
                            case nil: unknown = true
                            }
                        }
                        if !unknown, let pick = chosen.first, chosen.allSatisfy({ $0.value == pick.value }) {
                            value = .literal(pick.value)
                            notes.append(render.note(Self.branchConstantNote, at: ProjectLocation(file: pick.file, line: pick.line)))
                            // The other values, which other configurations may compile.
                            for alt in use.alternatives where alt.value != pick.value {
                                compiledElsewhere(alt.branches, in: alt.file, at: ProjectLocation(file: alt.file, line: alt.line))
                            }
                        }
                    }
                    // A marker the finder did not work out is no group.
                    if case .literal(let marked) = value, AccessGroupFinder.isMarker(marked), AccessGroupFinder.infoPlistParts(marked: marked) == nil {
                        value = .unfollowed("a string kcs cannot work out")
                    }
                    // A string of Info.plist, or one joined from such strings
                    // and text: this target's, with its build settings.
                    if case .literal(let marked) = value, let parts = AccessGroupFinder.infoPlistParts(marked: marked) {
                        func cannotRead(_ key: String, _ why: String) {
                            // A key one or two letters from it in the target's
                            // Info.plist is the cause, not the xcconfig files
                            // kcs could not read: they cannot add a key to a
                            // written Info.plist (Mattermost's
                            // `AppGroupIdentifer`; real-project trial 22, D5).
                            if let plist = infoPlistKeys(target, signing.resolved), let keys = plist.keys, !keys.contains(where: { $0.key == key }),
                               let near = keys.prefix(2_000).compactMap({ k in Suggest.editDistance(k.key, key, atMost: 2).map { (k, $0) } })
                                   .min(by: { $0.1 < $1.1 }) {
                                out.append(render.diagnostic(ProjectIssue(
                                    .warning, "\(who) passes \(use.api) its Info.plist's \(key), which its Info.plist '\(plist.file)' does not set, so the lookup gives nil: "
                                        + "it sets \(near.0.key), \(near.1 == 1 ? "one letter" : "two letters") from it",
                                    at: at, hint: "did you mean \(key) for the key \(near.0.key)? write the key as the code reads it (or the code as the key is written); its groups: \(groups)"),
                                    code: .codeGroupNotCheckable, length: use.length,
                                    notes: notes + [render.note("Info.plist's \(near.0.key) is set here", at: near.0.location)]))
                                return
                            }
                            out.append(render.diagnostic(ProjectIssue(
                                .warning, "\(who) passes \(use.api) its Info.plist's \(key), which kcs cannot read: \(why)",
                                at: at, hint: "its groups: \(groups)"),
                                code: .codeGroupNotCheckable, length: use.length, notes: notes))
                        }
                        var built = "", read = true
                        for part in parts where read {
                            guard case .read(let key, let fallback) = part else {
                                if case .text(let text) = part { built += text }
                                continue
                            }
                            // Each target's key read once, however many uses ask
                            // (a 32 MB Info.plist with 200 uses took 365 s; found by review).
                            let cacheKey = target.id + "\u{0}" + signing.resolved.platform + "\u{0}" + key
                            let found = infoPlistStrings[cacheKey] ?? lint.project.infoPlistString(key, of: signing.resolved)
                            infoPlistStrings[cacheKey] = found
                            switch found {
                            case .value(let string, let setAt, let settings):
                                built += string
                                if let setAt { notes.append(render.note("Info.plist's \(key) is set here", at: setAt)) }
                                // And the build setting it names, where the value is written.
                                for (name, setAt) in settings.prefix(4) { notes.append(render.note("\(name) is set here", at: setAt)) }
                            case .unset:
                                // The code's default is the value (real-project trial 16, D2).
                                guard let fallback else {
                                    // The file, and a key one or two letters
                                    // from it that the file sets (real-project trial 21, W3).
                                    // (A key one or two letters from it is said by `cannotRead`.)
                                    var why = "no Info.plist of the target sets it"
                                    if let plist = infoPlistKeys(target, signing.resolved) { why += " (its Info.plist: '\(plist.file)')" }
                                    cannotRead(key, why)
                                    read = false
                                    continue
                                }
                                built += fallback
                                notes.append(render.note("no Info.plist of the target sets \(key): the code's default \"\(fallback)\" is used",
                                                         at: use.constant.map { ProjectLocation(file: $0.file, line: $0.line) } ?? at))
                            case .unresolved(let setAt, let undefined, let problems):
                                // Which of the two it is, and where the value is written.
                                if let setAt { notes.append(render.note("Info.plist's \(key) is set here", at: setAt)) }
                                cannotRead(key, undefined.isEmpty
                                    ? "its value is malformed (\(problems.prefix(2).joined(separator: "; ")))"
                                    : "its value uses " + undefined.prefix(3).map { "$(\($0))" }.joined(separator: ", ") + ", which the target does not define")
                                read = false
                            case .unread(let why):
                                cannotRead(key, why)
                                read = false
                            }
                        }
                        guard read else { continue }
                        value = .literal(built)
                    }
                    // The other targets that hold a group in this configuration.
                    let othersHolding = { (g: String) in (holdersByGroup(signing.configuration)[g] ?? []).filter { $0 != target.name } }
                    // For the did-you-mean: the others that sign with a file of
                    // their own. A twin signing with this target's file holds its
                    // typo too, and told the correct code to adopt it (D2).
                    let ownFile = signingFile(target.name, signing.configuration)
                    let witnesses = { (g: String) in
                        othersHolding(g).filter { ownFile == nil || signingFile($0, signing.configuration) != ownFile }
                    }
                    if use.isAppGroup {
                        // On the Mac, the group's container is the sandbox's to
                        // give: a sandboxed app reaches only the groups it lists,
                        // where containerURL returns a URL even for a group it
                        // does not (Apple, containerURL(forSecurityApplicationGroupIdentifier:)).
                        // An app that is not sandboxed needs no such claim
                        // (real-project trial 23, D9; docs/xcode.md).
                        let onMac = signing.resolved.platform == "macos"
                        // Sandboxed by the entitlement, or by ENABLE_APP_SANDBOX,
                        // with which Xcode adds it (review 23b, B4).
                        let checked = !onMac || signing.entitlements?.appSandbox == true
                            || signing.resolved.settings.value(of: "ENABLE_APP_SANDBOX").value.uppercased() == "YES"
                        // A value kcs cannot work out is said as not checkable:
                        // a parameter, or a macro with a value per `#if` branch
                        // this build does not decide, as a warning, as for an
                        // access group (Psiphon's `initWithSuiteName:identifier`,
                        // Monal's `kAppGroup`; real-project trial 23, D3); any
                        // other value as a note, since a suite name may be the
                        // app's own, which needs no entitlement (Session's
                        // `….defaulting(to: "group…")`, `"group.x." + suffix()`;
                        // real-project trials 21, D7, and 22, D6). Both were silent.
                        if compiled == true, checked {
                            let said: (text: String, severity: ProjectIssue.Severity)? = switch value {
                            case .runtime(let expr): ("a value built at run time (\(Self.excerpt(expr)))", .note)
                            case .unfollowed(let what, let kind): (what, kind == .other ? .note : .warning)
                            default: nil
                            }
                            if let said {
                                out.append(render.diagnostic(ProjectIssue(
                                    said.severity, "\(who) passes \(use.api) \(said.text)\(use.condition.map { " " + Self.under($0) } ?? ""): kcs cannot check it",
                                    at: at, hint: "its app groups: " + (app.applicationGroups.isEmpty ? "none" : app.applicationGroups.joined(separator: ", "))),
                                    code: .codeGroupNotCheckable, length: use.length, notes: notes))
                                continue
                            }
                        }
                        // An app group: only a group the build surely names is
                        // checked, against the application groups, where the
                        // entitlement governs the container (on macOS, for a
                        // sandboxed target alone).
                        // A suite that is no app group (`com.example.App.debug`) is
                        // the app's own (found by adversarial testing): only
                        // `group.` names are app groups here, and on the Mac
                        // `TEAMID.` ones too.
                        guard case .literal(let group) = value, compiled == true, checked,
                              onMac ? KeychainNames.couldBeAppGroup(group) : group.hasPrefix("group."),
                              !app.applicationGroups.contains(group) else { continue }
                        let what = use.api.hasPrefix("UserDefaults") ? Self.appGroupEffects[0]
                            : onMac ? Self.macContainerEffect : Self.appGroupEffects[1]
                        let unnamedBy = unnamed(use)
                        var d = render.diagnostic(ProjectIssue(
                            unnamedBy == nil ? .warning : .note, "\(who) names the app group \(shown(group))\(use.condition.map { " (\(Self.under($0)), which this build compiles)" } ?? ""), which it is not entitled to: \(what)",
                            at: at), code: .codeGroupNotEntitled, length: use.length, notes: notes)
                        // The hint only when the merged finding keeps or compares it
                        // (a did-you-mean per target × use; adversarial run 25, F11).
                        if out.needsHint(d) {
                            let near = Self.didYouMean(group, in: app.applicationGroups, target: target.name, appID: app.appID, holders: witnesses)
                            var hint = app.applicationGroups.isEmpty
                                // The file named: the Catalyst build's is another one
                                // (real-project trial 21, W9: iOCNotes-mac.entitlements).
                                ? "it has no app groups: add \(shown(group)) to its com.apple.security.application-groups"
                                    + (signing.resolved.entitlementsPath.map { " in '\($0)'" } ?? "")
                                : near + "its app groups: " + app.applicationGroups.joined(separator: ", ")
                            // Another target's group in a file they share: the call
                            // may be one this target never makes (Woo's watch app
                            // compiles a `static let` the phone app uses; real-project
                            // trial 15, D9), as for keychain groups below. Unless
                            // its own list has the group misspelt (real-project trial 19, W2).
                            let holders = othersHolding(group)
                            if !holders.isEmpty, near.isEmpty {
                                let who = holders.map { "'\($0)'" }.joined(separator: ", ")
                                // Its own file, which no other target compiles: the
                                // call is its own, and "never makes this call" fit
                                // nothing (real-project trial 19, W1; Siskin's NSE).
                                hint = via.isEmpty && (compilers(of: path) ?? 2) <= 1
                                    ? "add \(shown(group)) to its com.apple.security.application-groups (\(who) \(holders.count == 1 ? "holds" : "hold") it)"
                                    : "only \(who) \(holders.count == 1 ? "holds" : "hold") \(shown(group)): "
                                        + "make sure '\(target.name)' never makes this call\(use.inLazyConstant ? " (a static let is set on first use)" : ""), or add the group to its entitlements"
                            }
                            // No entitlements file in this configuration: the fix is
                            // the setting (real-project trial 21, W1).
                            if near.isEmpty, let noFile = lint.noFileHint(group, for: target) { hint = noFile }
                            // A watch app's group reaches its own extensions, never the phone.
                            if signing.resolved.platform == "watchos" {
                                hint = "on watchOS an app group is shared only with the watch app's own extensions, not with the iPhone app; " + hint
                            }
                            if let unnamedBy { hint = unnamedHint(unnamedBy) + hint }
                            d.hint = hint
                        }
                        out.append(d)
                        continue
                    }
                    if case .literal(let group) = value, !grantedSet.contains(group), heldUnderSomeTeam(group) { continue }
                    switch value {
                    case .literal(let group) where compiled == nil && !grantedSet.contains(group):
                        // Compiled or not depending on what kcs cannot answer
                        // (an architecture, a flag from an unread xcconfig, a
                        // condition on a constant's declaration): not a sure failure.
                        out.append(render.diagnostic(ProjectIssue(
                            .warning, "\(who) names the access group \(shown(group)) \(Self.under(use.condition ?? "")), which it is not entitled to; kcs cannot tell whether this build compiles the call",
                            at: at, hint: "its groups: \(groups)"),
                            code: .codeGroupNotCheckable, length: use.length, notes: notes))
                    case .runtime(let expr):
                        out.append(render.diagnostic(ProjectIssue(
                            .warning, "\(who) passes \(use.api) a value built at run time (\(Self.excerpt(expr)))\(use.condition.map { " " + Self.under($0) } ?? ""): kcs cannot check it",
                            at: at, hint: "its groups: \(groups)"),
                            code: .codeGroupNotCheckable, length: use.length, notes: notes))
                    case .unfollowed(let what, _):
                        out.append(render.diagnostic(ProjectIssue(
                            .warning, "\(who) passes \(use.api) \(what)\(use.condition.map { " " + Self.under($0) } ?? ""): kcs cannot check it",
                            at: at, hint: "its groups: \(groups)"),
                            code: .codeGroupNotCheckable, length: use.length, notes: notes))
                    case .literal(let group):
                        guard !grantedSet.contains(group) else { continue }
                        // One typo from a group it holds: said first (NetNewsWire's
                        // "group.io.netbird.ap" listed the right one without
                        // saying so; found on a real-project trial). Among a
                        // few hundred groups at most: each is an edit distance.
                        let unnamedBy = unnamed(use)
                        var d = render.diagnostic(ProjectIssue(
                            unnamedBy == nil ? .warning : .note, "\(who) names the access group \(shown(group))\(use.condition.map { " (\(Self.under($0)), which this build compiles)" } ?? ""), which it is not entitled to: \(via.isEmpty ? "the call fails" : "if it makes this call, the call fails") with errSecMissingEntitlement (-34018)",
                            at: at), code: .codeGroupNotEntitled, length: use.length, notes: notes)
                        // The hint only when the merged finding keeps or compares it.
                        if out.needsHint(d) {
                            let near = Self.didYouMean(group, in: grantedOnce, target: target.name, appID: app.appID, holders: witnesses)
                            var hint = near + "its groups: " + groups

                            if use.prefixPassedApart, let passed = Team.prefix(of: group), let restOfGroup = Team.withoutPrefix(group) {
                                // The team is an argument of its own: the fix is
                                // that argument, or the group without it, never
                                // a prefix written into the group (a correct
                                // `Keychain(team:group:)` was told to add the
                                // team twice; real-project trial 17, D1).
                                let rest = String(restOfGroup)
                                if let team = app.teamID, passed != team, grantedSet.contains(team + "." + rest) {
                                    hint = "the team passed is \(passed), and '\(target.name)' is signed by \(team): pass \"\(team)\" (\(team).\(rest) is one of its groups)"
                                } else if grantedSet.contains(rest) {
                                    hint = "\(rest) is one of its groups as it is named, without a team: pass it without the team (a call that takes the group alone), "
                                        + "or add $(AppIdentifierPrefix)\(rest) to its keychain-access-groups; its groups: " + groups
                                }
                            } else if group.contains("$("), let team = app.teamID {
                                // Swift strings are not build settings.
                                let written = group.replacingOccurrences(of: "$(AppIdentifierPrefix)", with: team + ".")
                                    .replacingOccurrences(of: "$(TeamIdentifierPrefix)", with: team + ".")
                                hint = "Xcode expands build settings in entitlements, not in Swift strings: the call passes the text as written"
                                    + (grantedSet.contains(written) ? "; write \"\(written)\"" : "; its groups: " + groups)
                            } else if let doubled = granted.first(where: { EntitlementShape.withoutDoubledPrefix($0) == group }) {
                                // The code is right; the entitlement has the team twice.
                                hint = "the entitlement is wrong, not the code: \(doubled) repeats the team ID; write $(AppIdentifierPrefix)\(group.drop { $0 != "." }.dropFirst()) in the .entitlements file; "
                                    + EntitlementShape.shippedGroupCaveat(doubled)
                            } else if let rest = Team.withoutPrefix(group), case let appGroup = String(rest), appGroup.hasPrefix("group."),
                                      app.applicationGroups.contains(appGroup), near.isEmpty,
                                      !granted.contains(where: { Team.withoutPrefix($0) == rest }) {
                                // An app group with a team prefix: "did you mean" the
                                // app-ID group by edit distance would move the items into
                                // the app's private group (Habitica's tokens; real-project
                                // trial 14, D4). Not when the target lists TEAM.group.x as
                                // a keychain group, or a near miss of the code's: the
                                // items live there, and the team or the typo is the fix
                                // (Delta Chat, Proton Pass; real-project trial 22, D1).
                                hint = "\(appGroup) is an app group: write \"\(appGroup)\", without the team prefix (an app group is a keychain access group as it is named)"
                            } else if let prefixed = app.prefixedGroup(for: group) {
                                hint = "the group lacks its team prefix: write \"\(prefixed)\" (the entitlement's $(AppIdentifierPrefix) expands to \(app.teamID ?? "the team").)"
                            } else if let team = app.teamID, !group.hasPrefix("group."),
                                      case let holders = othersHolding(team + "." + group),
                                      !holders.isEmpty {
                                hint = "the group lacks its team prefix, and '\(target.name)' is not entitled to \(team).\(group) either (\(holders.map { "'\($0)'" }.joined(separator: ", ")) \(holders.count == 1 ? "is" : "are")): add $(AppIdentifierPrefix)\(group) to its keychain-access-groups and write \"\(team).\(group)\""
                            } else if let passed = Team.prefix(of: group), let team = app.teamID, case let prefix = String(passed), prefix != team,
                                      let host = otherTeamHosts[target.id]?.first(where: { $0.team == prefix }) {
                                // The prefix is the team of the app that embeds it:
                                // the target's own team is the mistake, and writing
                                // its prefix would share nothing with the app
                                // (real-project trial 21, D3).
                                hint = "\(prefix) is the team of '\(host.host.name)', which embeds '\(target.name)', and '\(target.name)' is signed by \(team): "
                                    + "sign it with team \(prefix) (its DEVELOPMENT_TEAM); with \(team)'s prefix it would share nothing with '\(host.host.name)'"
                            } else if let rest = Team.withoutPrefix(group), let team = app.teamID, grantedSet.contains(team + "." + rest) {
                                hint = "the group has another team's prefix: the target is signed by \(team), so write \"\(team).\(rest)\""
                            } else if case let holders = othersHolding(group), !holders.isEmpty, !near.hasPrefix("its entitlements list") {
                                // Another target's group is no typo: "did you mean" this
                                // target's nearest pushed an app-only secret toward the
                                // group its extension shares (2PASS; found on a real-project trial).
                                let who = holders.map { "'\($0)'" }.joined(separator: ", ")
                                hint = "only \(who) \(holders.count == 1 ? "holds" : "hold") \(group): " + (via.isEmpty
                                    ? "add it to the entitlements of '\(target.name)' to share it"
                                    : "make sure '\(target.name)' never makes this call, or add the group to its entitlements")
                            }
                            // Another configuration's file lists it, and this one
                            // signs with none (real-project trial 21, W1).
                            if lint.fileListing(group, elsewhereFor: target) != nil, let noFile = lint.noFileHint(group, for: target) { hint = noFile }
                            if let unnamedBy { hint = unnamedHint(unnamedBy) + hint }
                            d.hint = hint
                        }
                        out.append(d)
                    }
                }
            }
        }
        if let at = otherPlaces.first {
            let n = otherPlaces.count, named = otherConfigurations.map { "'\($0)'" }
            let who = (named.count == 1 ? "configuration " + named[0] + " compiles" : "configurations " + named.joined(separator: ", ") + " compile")
            out.append(render.diagnostic(ProjectIssue(
                .note, "\(who) \(n == 1 ? "a group" : "\(n) groups") of the code under #if that configuration '\(lint.configuration)' does not compile: "
                    + "\(n == 1 ? "it is" : "they are") not checked here",
                at: at, hint: "lint with " + otherConfigurations.map { "--configuration \($0)" }.joined(separator: " and ") + " too"),
                code: .codeGroupNotCheckable))
        }
        out += sharesOnlyAnAppGroup(lint, naming: keychainNaming, &render)
        out += missingOnMacCatalyst(lint, naming: keychainNaming, &render)
        if let first = podsSources.first {
            let n = podsSources.count
            var owners: [String] = []
            for p in podsSources where !owners.contains(p.of) { owners.append(p.of) }
            // "targets 'A', 'B'" when each is a target's own source.
            let targetsOnly = owners.allSatisfy { $0.hasPrefix("target '") }
            let whose = owners.count > 4 ? "of \(owners.count) targets"
                : targetsOnly && owners.count > 1 ? "of targets " + owners.map { $0.dropFirst(7) }.joined(separator: ", ")
                : "of " + owners.joined(separator: "; ")
            out.append(render.diagnostic(ProjectIssue(
                .warning, n == 1 ? "cannot read '\(first.path)', a source of \(first.of)"
                    : "cannot read \(n) sources CocoaPods writes, \(whose), the first of them '\(first.path)'",
                at: first.at, hint: n == 1 ? first.hint : "run `pod install` first: the Pods folder is CocoaPods' output, absent from a fresh clone; "
                    + "their groups are not checked"),
                code: .projectSetting))
        }
        return foldedByConstant(out.merged)
    }

    /// The keychain groups a target's code names: each one every build
    /// compiles as a string kcs works out, and whether any other naming
    /// (a value built at run time, under `#if`) leaves it unknown.
    struct KeychainNaming {
        var groups: [(group: String, at: ProjectLocation)] = []
        var unknown = false
        /// The app groups (`group.…`) it names alike, for ``missingOnMacCatalyst``.
        var appGroups: [(group: String, at: ProjectLocation)] = []

        init(_ found: [(path: String, uses: [AccessGroupUse])]) {
            for (path, uses) in found {
                for use in uses where use.isAppGroup && use.condition == nil && use.alternatives.isEmpty {
                    if case .literal(let g) = use.value, g.hasPrefix("group.") {
                        appGroups.append((g, ProjectLocation(file: path, line: use.line, column: use.column)))
                    }
                }
                for use in uses where !use.isAppGroup {
                    if use.condition == nil, use.alternatives.isEmpty, case .literal(let g) = use.value, !AccessGroupFinder.isMarker(g) {
                        groups.append((g, ProjectLocation(file: path, line: use.line, column: use.column)))
                    } else {
                        unknown = true
                    }
                }
            }
        }
    }

    /// KCS604 where the project lint cannot tell: an extension that shares
    /// an app group with its app but lacks the keychain group the app's
    /// code stores in, while its own keychain code names no group (it reads
    /// the groups it holds). The shared app group hid it (Lockdown's tunnel
    /// and widgets; real-project trial 19, D2). Only when the app's group
    /// is known: the strings its code names and holds, or, when its code
    /// calls Security's keychain API and names none, its default group.
    static func sharesOnlyAnAppGroup(_ lint: ProjectLint, naming: [String: KeychainNaming], _ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let byID = Dictionary(lint.project.targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let writers = lint.groupWriters()
        // Signed by another team than its app: it shares nothing, KCS604's own finding.
        let otherTeam = Set(lint.signedByAnotherTeam().map(\.child.id))
        // Each extension's groups and the groups its app ID holds, once: per
        // host and extension they were sets of every group (100 targets
        // embedding each other with 10,000 groups; adversarial run 25, F10).
        var childSets: [String: (groups: Set<String>, holds: Set<String>)] = [:]
        // Whether code an app and an extension both compile stores in the
        // app's default group, once per pair of source lists, each file
        // read and scanned once: per pair it read and scanned every shared
        // file and the app's (adversarial run 26, F12).
        let scanned = SharedScans()
        var listIDs: [[String]: Int] = [:], listOf: [String: Int] = [:]
        func list(_ t: XcodeProject.Target) -> Int {
            if let known = listOf[t.id] { return known }
            let sources = lint.code(of: t).swiftSources
            let id = listIDs[sources] ?? listIDs.count
            listIDs[sources] = id
            listOf[t.id] = id
            return id
        }
        struct Pair: Hashable { var host: Int, child: Int }
        var storesInBoth: [Pair: Bool] = [:]
        func bothStore(_ host: XcodeProject.Target, _ child: XcodeProject.Target) -> Bool {
            let key = Pair(host: list(host), child: list(child))
            if let known = storesInBoth[key] { return known }
            let childFiles = Set(lint.code(of: child).swiftSources.map(ProjectPath.normalize))
            let both = Set(lint.code(of: host).swiftSources.filter { childFiles.contains(ProjectPath.normalize($0)) })
            let answer = !both.isEmpty && lint.keychainCode(of: host, among: both, scanned: scanned)?.direct == true
                && lint.bothCall(keychainCodeAmong: both, host, child, scanned: scanned)
            storesInBoth[key] = answer
            return answer
        }
        for host in lint.project.targets where host.kind != nil && !host.embeddedTargets.isEmpty {
            // On the Mac a call without kSecUseDataProtectionKeychain goes to
            // the file-based keychain, which ignores the groups (Stats' widget).
            guard let h = lint.signing(of: host), h.resolved.platform != "macos", let hostApp = h.appTarget,
                  let hostNaming = naming[host.id], !hostNaming.unknown else { continue }
            let hostShares = Set(h.keychainAccessGroups.map(\.value) + h.applicationGroups.map(\.value)).subtracting([""])
            // Worked out when an extension asks: the default group reads the app's sources.
            var known: [(group: String, at: ProjectLocation?)]?
            for id in host.embeddedTargets(on: h.resolved.platform) {
                guard let child = byID[id], child.kind != .app,
                      let c = lint.signing(of: child), let childApp = c.appTarget, c.resolved.platform == h.resolved.platform,
                      let childNaming = naming[child.id], !childNaming.unknown, childNaming.groups.isEmpty, !otherTeam.contains(id) else { continue }
                let sets = childSets[id] ?? (Set(c.keychainAccessGroups.map(\.value) + c.applicationGroups.map(\.value)), Set(childApp.accessGroups))
                childSets[id] = sets
                // Sharing nothing is KCS604's own finding.
                guard !hostShares.isDisjoint(with: sets.groups) else { continue }
                if known == nil {
                    // A group the app names that is not its app ID, its own
                    // private group.
                    let hostGranted = Set(hostApp.accessGroups)
                    var found: [(group: String, at: ProjectLocation?)] = [], seen = Set<String>()
                    for (g, at) in hostNaming.groups where hostGranted.contains(g) && g != hostApp.appID && seen.insert(g).inserted { found.append((g, at)) }
                    known = found
                }
                var written = known ?? []
                // Naming none, the app stores in its default group: said only
                // for Security's keychain calls in code both compile and both
                // call, which runs in each with its own default group
                // (Lockdown's Shared.swift); an extension's own keychain code
                // may keep items of its own.
                if hostNaming.groups.isEmpty, let d = hostApp.defaultGroup, bothStore(host, child) {
                    written = [(d, nil)]
                }
                guard !written.isEmpty else { continue }
                guard written.allSatisfy({ !sets.holds.contains($0.group) }) else { continue }
                // A keychain group one or two letters from the app's, on
                // either side, is KCS604's near miss: only one it says (an
                // app ID is a real group there, and a typo in the app's
                // group was left by each rule to the other; real-project
                // trial 20, D3).
                let near = lint.nearMisses(child: c, host: h, writers: writers)
                guard !written.contains(where: { w in near.contains { $0.keychain && $0.hostGroup == w.group } }),
                      let code = lint.keychainCode(of: child, scanned: scanned) else { continue }
                let groups = written.map(\.group)
                let shared = hostShares.intersection(sets.groups).sorted()
                let team = hostApp.teamID.map { $0 + "." }
                let entitlement = groups.map { g in team.flatMap { g.hasPrefix($0) ? "$(AppIdentifierPrefix)" + g.dropFirst($0.count) : nil } ?? g }
                let stores = written[0].at == nil ? "its default keychain group \(groups[0]) (its keychain code names none)" : groups.joined(separator: ", ")
                var notes: [DiagnosticNote] = []
                if let at = written[0].at { notes.append(render.note("'\(host.name)' names \(groups[0]) here", at: at)) }
                out.append(render.diagnostic(ProjectIssue(
                    .warning, "target '\(child.name)' is embedded in '\(host.name)' and shares only \(shared.joined(separator: ", ")) with it (configuration '\(c.configuration)'): "
                        + "it cannot read what '\(host.name)' stores in \(stores)",
                    at: c.keychainAccessGroups.first?.location ?? c.applicationGroups.first?.location ?? c.resolved.entitlementsLocation ?? child.location,
                    // A default group with an empty part (a setting that expands
                    // to nothing) is the app's entry to fix, not one to copy
                    // (DuckDuckGo's `HKE973VLUW.`; real-project trial 24, D3).
                    hint: (written[0].at == nil && EntitlementShape.hasEmptyPart(groups[0])
                        ? "the default group of '\(host.name)' is the first of its keychain-access-groups, \(groups[0]), which has an empty part "
                            + "(a setting expands to nothing): fix that entry of '\(host.name)' rather than copy it, "
                        : "add \(entitlement[0]) to the keychain-access-groups of '\(child.name)' (an extension inherits nothing from its app), ")
                        + "or have both store the item in a group they share; asked because its code uses the keychain (\(code.word) in \(ProjectPath.lastComponent(code.file))"
                        + ProjectLint.via(lint.code(of: child).owner[code.file]) + ") and names no access group"),
                    code: .projectExtensionGroup, notes: notes))
            }
        }
        return out
    }

    /// Whether `text` has `word` as a whole name (not inside a longer one).
    static func namesWord(_ word: String, in text: String) -> Bool {
        func isName(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        var rest = text[...]
        while let r = rest.firstRange(of: word) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            if !(before.map(isName) ?? false) && !(after.map(isName) ?? false) { return true }
            rest = text[r.upperBound...]
        }
        return false
    }

    /// KCS607 for a target's Mac Catalyst build, which signs with another
    /// file (`CODE_SIGN_ENTITLEMENTS[sdk=macosx*]`): a keychain group its
    /// code names that the iOS build holds and the Catalyst one does not.
    /// The checks take the first platform, and the Catalyst build's add
    /// failed with -34018 unsaid (real-project trial 19, D5; Nostur). Only
    /// groups every build compiles, as strings kcs works out.
    static func missingOnMacCatalyst(_ lint: ProjectLint, naming: [String: KeychainNaming], _ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for target in lint.project.targets where target.kind != nil {
            guard let signing = lint.signing(of: target), signing.resolved.platform == "ios", let ios = signing.appTarget,
                  let named = naming[target.id], !named.groups.isEmpty || !named.appGroups.isEmpty, let iosFile = signing.resolved.entitlementsPath,
                  lint.project.platforms(of: target, configuration: signing.configuration).platforms.contains("catalyst") else { continue }
            let mac = TargetSigning.resolve(lint.project, target, configuration: signing.configuration, platform: "catalyst",
                                            team: signing.resolved.teamID, fileSystem: lint.fileSystem)
            guard let macFile = mac.resolved.entitlementsPath, lint.fileSystem.canonical(macFile) != lint.fileSystem.canonical(iosFile),
                  mac.entitlements != nil, mac.groupsResolve, let catalyst = mac.appTarget else { continue }
            let iosGroups = Set(ios.accessGroups), macGroups = Set(catalyst.accessGroups)
            var said = Set<String>()
            for (group, at) in named.groups where iosGroups.contains(group) && !macGroups.contains(group) && said.insert(group).inserted {
                let team = catalyst.teamID.map { $0 + "." }
                let entitlement = team.flatMap { group.hasPrefix($0) ? "$(AppIdentifierPrefix)" + group.dropFirst($0.count) : nil } ?? group
                out.append(render.diagnostic(ProjectIssue(
                    .warning, "target '\(target.name)' (configuration '\(signing.configuration)') names the access group \(group), which its Mac Catalyst build is not entitled to: "
                        + "it signs with '\(macFile)' there, which lacks it, and the call fails with errSecMissingEntitlement (-34018)",
                    at: at, hint: "add \(entitlement) to the keychain-access-groups of '\(macFile)', as '\(iosFile)' lists it"),
                    code: .codeGroupNotEntitled, notes: [render.note("CODE_SIGN_ENTITLEMENTS for the Mac SDK is set here", at: mac.resolved.entitlementsLocation)]))
            }
            for (group, at) in named.appGroups where ios.applicationGroups.contains(group) && !catalyst.applicationGroups.contains(group) && said.insert(group).inserted {
                out.append(render.diagnostic(ProjectIssue(
                    .warning, "target '\(target.name)' (configuration '\(signing.configuration)') names the app group \(group), which its Mac Catalyst build is not entitled to: "
                        + "it signs with '\(macFile)' there, which lacks it, so the call has no shared container there",
                    at: at, hint: "add \(group) to the com.apple.security.application-groups of '\(macFile)', as '\(iosFile)' lists it"),
                    code: .codeGroupNotEntitled, notes: [render.note("CODE_SIGN_ENTITLEMENTS for the Mac SDK is set here", at: mac.resolved.entitlementsLocation)]))
            }
        }
        return out
    }

    /// The note a finding whose group comes from one constant carries, at its declaration.
    static let constantNote = "the constant is declared here"
    /// The note at the branch of a constant with a value per `#if` branch
    /// that the build compiles: its uses are folded there as a plain
    /// constant's are (NetBird's one typo gave 29 warnings; real-project
    /// trial 21, D6).
    static let branchConstantNote = "the constant this build compiles is declared here"

    /// How many uses a finding said once at its constant points at.
    static let usesShown = 3

    /// One finding per constant and wording: the same group from one
    /// constant found at each of its uses is said once, at the constant's
    /// declaration, the one line to fix, with notes at its first uses and
    /// their count (one misspelt constant in nightguard gave 38 KCS607
    /// alike, none at the constant; real-project trial 16, D4). A finding
    /// at one use stays there, with its note at the constant.
    /// What an app group a target lacks does, by API: one constant used
    /// by both is one finding saying both (real-project trial 19, W2).
    static let appGroupEffects = ["UserDefaults(suiteName:) then keeps defaults of its own that no other target reads",
                                  "containerURL(forSecurityApplicationGroupIdentifier:) returns nil"]
    /// On the Mac the call returns a URL for any group; a sandboxed app
    /// cannot use the container of one it does not list.
    static let macContainerEffect = "containerURL(forSecurityApplicationGroupIdentifier:) returns the group's folder all the same, which the sandbox does not let it use"

    /// "and N more uses", or "and 1 more use".
    static func moreUses(_ n: Int) -> String { "and \(n) more use\(n == 1 ? "" : "s")" }

    /// The note at the constant a finding's group came from, if any.
    private static func constant(_ d: Diagnostic) -> DiagnosticNote? {
        guard d.code == .codeGroupNotEntitled || d.code == .codeGroupNotCheckable, d.range != nil else { return nil }
        return d.notes.first { $0.message == constantNote && $0.file != nil && $0.range != nil }
            ?? d.notes.first { $0.message == branchConstantNote && $0.file != nil && $0.range != nil }
    }

    /// An app group's finding without its effect, and the effect.
    private static func effect(_ message: String) -> (rest: String, effect: String?) {
        for e in appGroupEffects where message.hasSuffix(": " + e) { return (String(message.dropLast(e.count)), e) }
        return (message, nil)
    }

    /// Without the `#if` a use sits under: said at the constant, the
    /// uses' conditions are theirs, not its (NetBird's uses under
    /// `#if os(iOS)` and `#else` were each said apart; real-project trial 21, D6).
    private static func unconditioned(_ message: String) -> String {
        guard let open = message.range(of: " (under "),
              let close = message.range(of: ", which this build compiles)", range: open.upperBound..<message.endIndex) else { return message }
        return String(message[..<open.lowerBound] + message[close.upperBound...])
    }

    static func foldedByConstant(_ all: [Diagnostic]) -> [Diagnostic] {
        struct Key: Hashable { var code: String, file: String, start: Int, message: String, hint: String? }
        var groups: [Key: [Int]] = [:]
        for (i, d) in all.enumerated() {
            guard let c = constant(d), let file = c.file, let range = c.range else { continue }
            groups[Key(code: d.code.rawValue, file: file.name, start: range.start, message: unconditioned(effect(d.message).rest), hint: d.hint), default: []].append(i)
        }
        var folded: [Int: Diagnostic] = [:], dropped = Set<Int>()
        for indices in groups.values where indices.count > 1 {
            let first = all[indices[0]]
            guard let c = constant(first) else { continue }
            var d = first
            d.message = unconditioned(first.message)
            let effects = appGroupEffects.filter { e in indices.contains { effect(all[$0].message).effect == e } }
            if effects.count > 1 { d.message = unconditioned(effect(first.message).rest) + effects.joined(separator: ", and ") }
            d.message += " (said once for its \(indices.count) uses)"
            d.file = c.file
            d.range = c.range
            d.notes = indices.prefix(usesShown).map { DiagnosticNote("used here", file: all[$0].file, range: all[$0].range) }
            if indices.count > usesShown { d.notes.append(DiagnosticNote(Self.moreUses(indices.count - usesShown))) }
            d.notes += first.notes.filter { $0.message != constantNote && $0.message != branchConstantNote }
            folded[indices[0]] = d
            dropped.formUnion(indices.dropFirst())
        }
        return all.indices.compactMap { dropped.contains($0) ? nil : folded[$0] ?? all[$0] }
    }

    /// What `kcs lint --project` says of ``run(_:)``'s findings: the same
    /// finding at several uses with no constant behind them said once
    /// (``run(_:)`` keeps one per use, each at its line).
    public static func foldedByUse(_ all: [Diagnostic]) -> [Diagnostic] {
        var folded: [Int: Diagnostic] = [:], dropped = Set<Int>()
        // The same finding at several uses with no constant behind them:
        // one literal written at each call (Bark's extension without
        // `group.bark`: 7 KCS607 for 7 calls; real-project trial 20, W3) or
        // one expression kcs cannot work out, written at each use (Element
        // X's `InfoPlistReader.main.keychainAccessGroupIdentifier`: 5 KCS608;
        // trial 20, W11). Said once, at the first use, with notes at the
        // next ones and their count.
        struct UseKey: Hashable { var code: String, severity: String, message: String }
        var byMessage: [UseKey: [Int]] = [:]
        for (i, d) in all.enumerated() where constant(d) == nil
            && (d.code == .codeGroupNotEntitled || d.code == .codeGroupNotCheckable) && d.range != nil {
            byMessage[UseKey(code: d.code.rawValue, severity: "\(d.severity)", message: unconditioned(effect(d.message).rest)), default: []].append(i)
        }
        for indices in byMessage.values where indices.count > 1 {
            let first = all[indices[0]]
            var d = first
            d.message = unconditioned(first.message)
            let effects = appGroupEffects.filter { e in indices.contains { effect(all[$0].message).effect == e } }
            if effects.count > 1 { d.message = unconditioned(effect(first.message).rest) + effects.joined(separator: ", and ") }
            d.message += " (said once for its \(indices.count) uses)"
            // One call this target surely makes is enough for the group to
            // be needed: "add it" wins over "make sure it never makes this call".
            if let sure = indices.lazy.compactMap({ all[$0].hint }).first(where: { !$0.contains("never makes this call") }) { d.hint = sure }
            let others = indices.dropFirst()
            d.notes += others.prefix(usesShown).map { DiagnosticNote("named here too", file: all[$0].file, range: all[$0].range) }
            if others.count > usesShown { d.notes.append(DiagnosticNote(Self.moreUses(others.count - usesShown))) }
            folded[indices[0]] = d
            dropped.formUnion(others)
        }
        return all.indices.compactMap { dropped.contains($0) ? nil : folded[$0] ?? all[$0] }
    }

    /// "did you mean "…"? " for a group one typo from one of `groups` (an
    /// app group's too: Bark's `group.brak` had none; real-project trial
    /// 17, D7), else nothing. Among a few hundred groups at most: each is an
    /// edit distance.
    /// At most two edits, as KCS604's near miss: a third of the length let
    /// `….messenger.shared` suggest `….messenger.mobile` (real-project
    /// trial 19, W5). The nearest is in the target's own entitlements, so
    /// either side may be the typo: when another target holds the code's
    /// spelling and none the entitlements', the entitlements are the typo
    /// (W2); when no other target holds either, both are said, not "write
    /// the entitlements' spelling in the code" alone (W5). `holders`: the
    /// other targets that hold a group; the target's app ID is a real group
    /// whoever holds it.
    static func didYouMean(_ group: String, in groups: [String], target: String, appID: String?, holders: (String) -> [String]) -> String {
        guard groups.count <= 200 else { return "" }
        var best: (group: String, distance: Int)?
        for g in groups where g != group {
            if let d = Suggest.editDistance(group, g, atMost: 2), d > 0, d < (best?.distance ?? 3) { best = (g, d) }
        }
        guard let (near, d) = best else { return "" }
        let letters = d == 1 ? "one letter" : "two letters"
        let codeHeld = holders(group), nearIsReal = near == appID || !holders(near).isEmpty
        if !nearIsReal, !codeHeld.isEmpty {
            let who = codeHeld.map { "'\($0)'" }.joined(separator: ", ")
            return "its entitlements list \(shown(near)), \(letters) from it, and \(who) \(codeHeld.count == 1 ? "holds" : "hold") \(shown(group)): "
                + "did you mean \(shown(group)) in the entitlements of '\(target)'? "
        }
        if !nearIsReal {
            return "did you mean \"\(near)\"? or, if the code is right, \(shown(near)) in its entitlements is the typo "
                + "(items already stored live in the group the shipped build used); "
        }
        return "did you mean \"\(near)\"? "
    }

    /// How an Objective-C macro with a value per `#if` branch is said when
    /// the build's `GCC_PREPROCESSOR_DEFINITIONS` do not decide which.
    static let branchUndecided = "which kcs cannot tell from the build's GCC_PREPROCESSOR_DEFINITIONS"

    /// How many characters of an expression a message shows.
    static let shownExpression = 60

    /// An expression as a message shows it: whole when short, else cut
    /// where a token ends, with `…` and the brackets and quotes left open
    /// closed (Harbour's was cut inside a name, nio's had three `(` to
    /// one `)`; real-project trial 17, D6).
    static func excerpt(_ expr: String) -> String {
        let chars = Array(expr)
        guard chars.count > shownExpression else { return expr }
        func isWord(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }
        // The openers around each position: (, [, {, a string's ", an interpolation's \(.
        var open: [Character] = [], cut = 0, openAtCut: [Character] = []
        var i = 0
        while i <= shownExpression, i < chars.count {
            let c = chars[i]
            let inString = open.last == "\""
            // A token ends before i: not inside a string's text, not inside a word.
            if i > 0, !inString, !(isWord(chars[i - 1]) && isWord(c)) { cut = i; openAtCut = open }
            if inString {
                if c == "\\", i + 1 < chars.count, chars[i + 1] == "(" { open.append("i"); i += 2; continue }
                if c == "\\" { i += 2; continue }
                if c == "\"" { open.removeLast() }
            } else if c == "\"" {
                open.append("\"")
            } else if "([{".contains(c) {
                open.append(c)
            } else if ")]}".contains(c), !open.isEmpty {
                open.removeLast()
            }
            i += 1
        }
        // One long token: cut where the message stops.
        if cut == 0 { cut = min(i, shownExpression); openAtCut = open }
        var head = chars[..<cut]
        while head.last == " " { head = head.dropLast() }
        let closers = openAtCut.reversed().map { o -> String in
            switch o {
            case "(", "i": ")"
            case "[": "]"
            case "{": "}"
            default: "\""
            }
        }.joined()
        return String(head) + "…" + closers
    }

    /// One finding per place and wording: the same call found for several
    /// targets (a file they share, a framework they link) is said once,
    /// naming them (Windscribe had 28 warnings for two expressions, most
    /// repeated across five targets; found on a real-project trial).
    ///
    /// They are merged as they are made: each finding's targets are a bit set, and the first eight of them
    /// with their hints are kept, so what is held is one finding per place
    /// and wording whatever the number of targets. All findings made first
    /// and merged after, 1,000 targets × 4,000 uses held 4 million
    /// diagnostics (2.75 GB; adversarial run 25, F11).
    package struct FindingMerger {
        /// The first eight names and hints of a finding, and how many there are.
        static let shown = 8
        private let index: [String: Int]
        private var out: [Diagnostic] = []
        private var keys: [String: Int] = [:]
        private struct Merged {
            var first: [(name: String, hint: String?)] = []
            var count = 0
            var members: [UInt64] = []
            var hintsDiffer = false
        }
        /// Beside each of ``out``: its targets (none for a finding not about one).
        private var info: [Merged] = []

        package init(names: [String]) {
            var index: [String: Int] = [:]
            for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
            self.index = index
        }

        /// The name up to the first "' (configuration", when it is a target's.
        private func target(of message: String) -> (name: String, number: Int)? {
            // The marker is looked for after the prefix: a target named
            // " (configuration" made the range run backwards (a crash; found
            // by adversarial testing).
            let start = message.index(message.startIndex, offsetBy: 8, limitedBy: message.endIndex) ?? message.endIndex
            guard message.hasPrefix("target '"), let end = message.range(of: "' (configuration", range: start..<message.endIndex) else { return nil }
            let name = String(message[start..<end.lowerBound])
            return index[name].map { (name, $0) }
        }

        package static func += (merger: inout FindingMerger, findings: [Diagnostic]) {
            for d in findings { merger.append(d) }
        }

        /// The target a finding is about, and the key it merges under; nil
        /// for a finding not merged.
        private func place(_ d: Diagnostic) -> (name: String, number: Int, key: String)? {
            guard d.code == .codeGroupNotEntitled || d.code == .codeGroupNotCheckable || d.code == .codeFileKeychainGroup, let loc = d.location,
                  let (name, number) = target(of: d.message) else { return nil }
            let rest = d.message.dropFirst("target '\(name)' ".count)
            // A note (framework code the target never names) is not merged
            // into another target's warning, nor the warning into it.
            return (name, number, "\(d.code.rawValue)\u{0}\(d.severity)\u{0}\(d.file?.name ?? "")\u{0}\(loc.line):\(loc.column)\u{0}\(rest)")
        }

        /// Whether `d`'s hint would be kept or compared: not when its finding
        /// already names this target, or names eight with differing hints
        /// (a did-you-mean worked out for each of 1,000 targets × 4,000 uses
        /// was half the check's time; adversarial run 25, F11).
        package func needsHint(_ d: Diagnostic) -> Bool {
            guard let (_, number, key) = place(d), let i = keys[key] else { return true }
            let word = number >> 6, bit = UInt64(1) << UInt64(number & 63)
            if word < info[i].members.count, info[i].members[word] & bit != 0 { return false }
            return !(info[i].count >= Self.shown && info[i].hintsDiffer)
        }

        package mutating func append(_ d: Diagnostic) {
            guard let (name, number, key) = place(d) else {
                out.append(d)
                info.append(Merged())
                return
            }
            let i: Int
            if let known = keys[key] {
                i = known
            } else {
                i = out.count
                keys[key] = i
                out.append(d)
                info.append(Merged())
            }
            let word = number >> 6, bit = UInt64(1) << UInt64(number & 63)
            if info[i].members.count <= word { info[i].members += Array(repeating: 0, count: word + 1 - info[i].members.count) }
            guard info[i].members[word] & bit == 0 else { return }
            info[i].members[word] |= bit
            info[i].count += 1
            if let first = info[i].first.first, (first.hint ?? "") != (d.hint ?? "") { info[i].hintsDiffer = true }
            if info[i].first.count < Self.shown { info[i].first.append((name, d.hint)) }
        }

        /// The findings held: one per place and wording.
        package var held: Int { out.count }

        /// The findings in the order first made, each naming its targets.
        package var merged: [Diagnostic] {
            var all = out
            for (i, m) in info.enumerated() where m.count > 1 {
                let first = m.first[0].name
                let rest = String(all[i].message.dropFirst("target '\(first)' ".count))
                all[i].message = "targets " + ProjectInput.listed(m.first.map { "'\($0.name)'" }, of: m.count) + " " + CodeCheck.plural(rest)
                if m.hintsDiffer {
                    all[i].hint = ProjectInput.listed(m.first.map { "'\($0.name)': \($0.hint ?? "")" }, of: m.count)
                }
            }
            return all
        }
    }

    /// A finding's words after its target's name, said of several targets
    /// ("targets 'pass', 'passExtension' … which it links) passes" read
    /// wrong; found on a real-project trial).
    static func plural(_ rest: String) -> String {
        var out = rest
        for (one, many) in [(", which it links)", ", which they link)"), (") names the access group", ") name the access group"),
                            (") names the app group", ") name the app group"),
                            (") passes ", ") pass "), ("which it is not entitled to", "which they are not entitled to"),
                            ("if it makes this call", "if they make this call"), (" its Info.plist's ", " their Info.plist's ")] {
            if let r = out.range(of: one) { out.replaceSubrange(r, with: many) }
        }
        return out
    }

    /// The flags a resolved target's settings define, when every level of
    /// them was read and expands (else nil: not known).
    static func flags(_ r: ResolvedTarget) -> Set<String>? {
        let names = ["SWIFT_ACTIVE_COMPILATION_CONDITIONS", "OTHER_SWIFT_FLAGS"]
        let active = r.settings.value(of: names[0]), other = r.settings.value(of: names[1])
        // A setting no level sets is empty in the build too; one whose value
        // names an undefined setting is not known.
        let known = r.settingsAreComplete && zip(names, [active, other]).allSatisfy { name, e in
            e.problems.isEmpty && e.undefined.allSatisfy { $0 == name }
        }
        return known ? BuildConditions.flags(activeConditions: active.value, otherSwiftFlags: other.value) : nil
    }
}
