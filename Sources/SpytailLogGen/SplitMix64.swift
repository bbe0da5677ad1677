/// A small deterministic random generator (SplitMix64): the same seed gives byte-identical logs on every
/// machine and Swift version, which the standard library's `random(in:using:)` does not promise.
public struct SplitMix64 {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0); the modulo bias is far below anything a log generator cares about.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `range`.
    public mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// True with probability `percent` / 100 (two decimals of precision).
    public mutating func chance(_ percent: Double) -> Bool { below(10_000) < Int(percent * 100) }

    /// One of `items`.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// An index drawn with the given integer weights.
    public mutating func weighted(_ weights: [Int]) -> Int {
        var roll = below(weights.reduce(0, +))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }

    /// A triangular distribution on `low...high` with its peak at `mode`, rounded down.
    public mutating func triangular(_ low: Double, _ high: Double, _ mode: Double) -> Int {
        let u = Double(next() >> 11) / Double(1 << 53)
        let split = (mode - low) / (high - low)
        let value = u < split ? low + ((high - low) * (mode - low) * u).squareRoot()
            : high - ((high - low) * (high - mode) * (1 - u)).squareRoot()
        return Int(value)
    }
}
