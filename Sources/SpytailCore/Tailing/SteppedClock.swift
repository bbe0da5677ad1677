/// A clock whose time moves only when someone moves it (a test's manual clock). The run loop then waits for
/// events or for the clock to move, never for real time, so a test advances time instead of poking the loop.
public protocol SteppedClock: Clock {
    /// Calls `action` after every move of the clock.
    func onAdvance(_ action: @escaping @Sendable () -> Void)
}
