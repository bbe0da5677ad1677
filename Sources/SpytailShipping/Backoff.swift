/// Exponential backoff with jitter for retrying a destination: 100 ms doubling up to `cap`, each wait drawn
/// between half and all of the current step (so that many spytails do not retry in step).
struct Backoff {
    let initial: Duration
    let cap: Duration
    private(set) var step: Duration

    init(initial: Duration = .milliseconds(100), cap: Duration = .seconds(30)) {
        self.initial = initial
        self.cap = cap
        step = initial
    }

    /// The next wait, and the step doubles.
    mutating func next<G: RandomNumberGenerator>(using generator: inout G) -> Duration {
        let half = step / 2
        let milliseconds = max(1, Int(half.components.seconds * 1000 + half.components.attoseconds / 1_000_000_000_000_000))
        let wait = half + .milliseconds(Int.random(in: 0...milliseconds, using: &generator))
        step = min(cap, step * 2)
        return wait
    }

    mutating func next() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return next(using: &generator)
    }

    mutating func reset() { step = initial }
}
