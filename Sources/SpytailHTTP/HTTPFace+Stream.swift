import HTTPTypes
import Hummingbird
import NIOCore
import SpytailCore
import SpytailIO

/// `/api/stream`: server-sent events. `event: entry` (one jsonl record per `data:`, its number as `id:`),
/// `event: skipped` (how many this viewer missed: it fell more than the ring behind), `event: state` on a
/// state change, and a comment every 15 s to keep proxies from closing the connection. A viewer reads the
/// ring at its own pace: a slow one only ever costs itself. A viewer is written at most `writesPerSecond`
/// times a second with at most `entriesPerWrite` entries (20,000 a second; a person cannot read more). A viewer
/// a little behind (a late write on a busy machine) catches up over the next writes; one more than
/// `jumpBehind` entries behind (a second of the maximum rate) gets the newest and a `skipped` count, so a burst
/// of millions of lines a second costs the run nothing per viewer beyond that.
extension HTTPFace {
    static var keepAliveSeconds: Double { 15 }
    static var entriesPerWrite: Int { 2000 }
    static var writesPerSecond: Int { 10 }
    static var jumpBehind: UInt64 { UInt64(entriesPerWrite * writesPerSecond) }

    func stream(_ request: Request) throws -> Response {
        let filter = try viewFilter(request)
        let recent = telemetry.recent
        var seen = recent.newest
        if let last = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap({ UInt64($0) }) ?? request.uri.queryParameters["after"].flatMap({ UInt64(String($0)) }) {
            seen = min(last, seen)
        }
        guard let (viewer, _, wakeUps) = viewers.enter(recent) else {
            return Self.text(.serviceUnavailable, "too many viewers (http.maxViewers is \(viewers.limit))\n")
        }
        let telemetry = self.telemetry, viewers = self.viewers
        let startFrom = seen
        var response = Response(status: .ok, body: ResponseBody { writer in
            defer { viewers.leave(viewer, recent) }
            var cursor = StreamCursor(seen: startFrom, state: telemetry.current.state, filter: filter)
            try await writer.write(ByteBuffer(string: "retry: 2000\nevent: state\ndata: {\"state\":\"\(cursor.state.rawValue)\"}\n\n"))
            for await _ in wakeUps {
                repeat {  // until caught up: what a full write left over does not wait for new entries
                    let out = cursor.next(recent, state: telemetry.current.state, viewers: viewers)
                    if out.readableBytes > 0 { try await writer.write(out) }
                    // Wake-ups meanwhile are coalesced into one (the stream keeps only the newest).
                    try await Task.sleep(for: .milliseconds(1000 / Self.writesPerSecond))
                } while cursor.seen < recent.newest
            }
            try await writer.finish(nil)
        })
        response.headers[.contentType] = "text/event-stream"
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return response
    }
}
