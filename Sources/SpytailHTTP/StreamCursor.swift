import NIOCore
import SpytailCore
import SpytailIO

/// Where one viewer's stream is: the last entry number it was sent, the state it was told, and when it was
/// last written to (for the keep-alive). `next` builds the next write.
struct StreamCursor {
    var seen: UInt64
    var state: SpyState
    let filter: ViewFilter
    var lastWrite = RunTelemetry.monotonicSeconds()

    mutating func next(_ recent: RecentEntries, state now: SpyState, viewers: ViewerRegistry) -> ByteBuffer {
        var out = ByteBuffer()
        if now != state {
            state = now
            out.writeString("event: state\ndata: {\"state\":\"\(state.rawValue)\"}\n\n")
        }
        // Behind by more than a second's worth: jump to the newest, and say how many were skipped.
        let newest = recent.newest
        let from = newest > seen + HTTPFace.jumpBehind ? newest - UInt64(HTTPFace.entriesPerWrite) : seen
        let window = recent.window(after: from, limit: HTTPFace.entriesPerWrite)
        let missed = (from - seen) + window.missed
        if missed > 0 {
            viewers.skipped(Int(missed))
            out.writeString("event: skipped\ndata: \(missed)\n\n")
        }
        for segment in window.segments {
            segment.batch.withBytes { bytes in
                for index in segment.indices {
                    let item = segment.batch.items[index]
                    guard filter.shows(item, of: segment.batch, in: bytes) else { continue }
                    out.writeString("event: entry\ndata: ")
                    out.writeBytes(UnsafeBufferPointer(rebasing: bytes[item.record]))
                    out.writeString("\n\n")
                }
            }
        }
        if window.through > seen { out.writeString("id: \(window.through)\n\n") }
        seen = max(seen, window.through)
        let clock = RunTelemetry.monotonicSeconds()
        if out.readableBytes == 0 && clock - lastWrite >= HTTPFace.keepAliveSeconds { out.writeString(": keep-alive\n\n") }
        if out.readableBytes > 0 { lastWrite = clock }
        return out
    }
}
