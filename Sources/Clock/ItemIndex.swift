/// An index into one table of a run (its fixes, maneuvers, lines, replies,
/// …): four bytes, typed by what it indexes, so a reply's number can never
/// be read as a line's.
public struct ItemIndex<Item>: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The index, small so that events stay small.
    public var raw: Int32

    /// The index `i` (truncated to 32 bits: tables are never that long).
    public init(_ i: Int) { raw = Int32(truncatingIfNeeded: i) }

    /// The index as an `Int`, for subscripting.
    public var int: Int { Int(raw) }

    /// The number itself.
    public var description: String { String(raw) }

    /// Whether `a` comes before `b` in the table they index (file order).
    public static func < (a: ItemIndex, b: ItemIndex) -> Bool { a.raw < b.raw }
}
