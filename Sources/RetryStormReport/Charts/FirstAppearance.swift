import RetryStormResults
import RetryStormScenario
/// Numbers keys 0, 1, 2, … in the order they first appear: a dictionary to find a key, an array
/// to keep the order, so that nothing built from it depends on hashing order.
struct FirstAppearance<Key: Hashable> {
    /// The keys in order of first appearance.
    private(set) var keys: [Key] = []
    private var numbers: [Key: Int] = [:]

    /// The key's number, and whether this is its first appearance.
    /// - Complexity: O(1) on average.
    mutating func number(_ key: Key) -> (index: Int, isNew: Bool) {
        if let known = numbers[key] { return (known, false) }
        numbers[key] = keys.count
        keys.append(key)
        return (keys.count - 1, true)
    }

    var count: Int { keys.count }
}
