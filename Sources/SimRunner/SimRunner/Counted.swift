/// `count` and its noun, singular for 1 and plural otherwise: `1 run`,
/// `2 runs`, `0 tries`. The one way a message counts things; `plural`
/// defaults to the noun with an `s`.
package func counted(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
}
