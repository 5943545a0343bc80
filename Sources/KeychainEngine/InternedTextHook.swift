extension AttributeText {
    /// The intern table's slot hash of `text`'s bytes
    /// (``Interned/Table/hash(_:)``). A test hook: two processes must give
    /// two answers, so which texts share a slot cannot be worked out before
    /// a run (review 22a, R1; review 22b, R11: a test that crafted texts
    /// against one unseeded hash let any other unseeded hash pass).
    public static func internTableHash(_ text: String) -> Int {
        Array(text.utf8).withUnsafeBufferPointer { Interned.Table.hash($0) }
    }
}
