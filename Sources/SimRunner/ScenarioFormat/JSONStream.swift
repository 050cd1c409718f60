import SimRunner

/// Pretty JSON written as it goes, for output too large to build as a
/// `JSONValue` first (a long drive's GeoJSON): the bytes are exactly those
/// of `JSONWriter.bytes(value)` for the same value, without its final
/// newline, provided each object's members come in key order (by UTF-8
/// bytes), which the caller writes them in.
///
///     var out = JSONStream()
///     out.open(.object); out.member("kind", "fix"); out.close(.object)   // {\n  "kind": "fix"\n}
package struct JSONStream {
    package enum Container { case object, array }

    package var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the innermost open container holds nothing yet.
    private var empty = true

    package init() {}

    package mutating func open(_ container: Container) {
        bytes.append(container == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        depth += 1
        empty = true
    }

    package mutating func close(_ container: Container) {
        depth -= 1
        if !empty { JSONWriter.newline(&bytes, indent: depth) }
        bytes.append(container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        empty = false
    }

    /// Before an array's next item.
    package mutating func item() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSONWriter.newline(&bytes, indent: depth)
    }

    /// An object's next key, a literal that needs no escape (checked in
    /// debug builds); its value follows.
    package mutating func key(_ key: StaticString) {
        item()
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        assert(
            name.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") },
            "a key that needs escaping")
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name)
        let close: StaticString = "\": "
        bytes.append(contentsOf: UnsafeBufferPointer(start: close.utf8Start, count: close.utf8CodeUnitCount))
    }

    package mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        JSONWriter.writeString(value, into: &bytes)
    }

    package mutating func member(_ key: StaticString, _ value: Int64) {
        self.key(key)
        bytes.append(int: value)
    }
}
