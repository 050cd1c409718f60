/// Whether a scalar must not reach a terminal or a picture as it is: C0 and
/// C1 controls, DEL, line and paragraph separators, bidirectional overrides
/// and the byte-order mark. The one list: an error message escapes these
/// (`ScenarioError.escaped`), a parse error names them by code point, and
/// every renderer escapes them (Review).
package func isUnsafeForDisplay(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: return true
    default: return false
    }
}
