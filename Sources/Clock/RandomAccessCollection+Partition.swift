extension RandomAccessCollection {
    /// The index of the first element for which `isInSecondPart` holds, in a
    /// collection where every element for which it holds comes after every
    /// element for which it does not (`endIndex` if it holds for none): the
    /// package's one binary search, named as in swift-algorithms.
    ///
    /// - Complexity: O(log n) calls of `isInSecondPart`.
    @inlinable
    package func partitioningIndex(where isInSecondPart: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let mid = index(low, offsetBy: half)
            if try isInSecondPart(self[mid]) {
                count = half
            } else {
                low = index(after: mid)
                count -= half + 1
            }
        }
        return low
    }
}
