/// One way of matching a line's bytes: the config's `contains`, `prefix` and `regex`.
public enum ByteMatcher {
    case contains(ByteNeedle)
    case prefix(ByteNeedle)
    case regex(Regex)

    @inlinable
    public func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .contains(let needle): needle.occurs(in: bytes)
        case .prefix(let needle): needle.isPrefix(of: bytes)
        case .regex(let regex): regex.matches(bytes)
        }
    }
}
