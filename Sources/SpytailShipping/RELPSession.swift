/// A RELP client session (the Reliable Event Logging Protocol of rsyslog's imrelp): `open`, then `syslog`
/// frames sent back to back and answered in order by `rsp` frames carrying `200 OK`, then `close`. Each
/// frame is `TXNR SP COMMAND SP DATALEN [SP DATA] LF`. A batch counts as delivered when every one of its
/// frames got its 200: that is what moves the checkpoints.
///
/// Written here rather than through librelp: librelp's client API (1.11) says when a frame entered its
/// send window, not when it was acknowledged (the list of unacknowledged frames is private, and
/// `relpCltDestruct` drops the outcome of the close handshake), so checkpoints could not follow the
/// acknowledgements through it.
final class RELPSession {
    struct Frame: Equatable {
        let txnr: Int
        let command: String
        let data: [UInt8]
    }

    let connection: SocketConnection
    private var nextTxnr = 1
    private var received: [UInt8] = []
    /// Where the next frame starts in `received`.
    private var readOffset = 0
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    init(_ connection: SocketConnection) { self.connection = connection }

    /// The `open` handshake; fails unless the server answers 200 and offers the `syslog` command.
    func open() throws(SocketConnection.Failure) {
        let offers = Array("relp_version=0\nrelp_software=spytail\ncommands=syslog".utf8)
        let txnr = take()
        try connection.send(Self.frame(txnr, "open", offers))
        let answer = try awaitResponse(txnr)
        guard answer.starts(with: Self.ok) else {
            throw SocketConnection.Failure("RELP open refused: \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
        guard String(decoding: answer, as: UTF8.self).contains("syslog") else {
            throw SocketConnection.Failure("the RELP server does not offer the syslog command")
        }
    }

    /// Sends every message and waits for every answer. Returns nil when all were acknowledged, or the
    /// first answer other than 200 (a refusal: the server's text).
    func send(_ messages: [ArraySlice<UInt8>]) throws(SocketConnection.Failure) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(messages.reduce(0) { $0 + $1.count + 24 })
        var txnrs: [Int] = []
        for message in messages {
            let txnr = take()
            txnrs.append(txnr)
            Self.appendFrame(txnr, "syslog", message, to: &out)
        }
        try connection.send(out)
        var refusal: String?
        for txnr in txnrs {
            let answer = try awaitResponse(txnr)
            if refusal == nil && !answer.starts(with: Self.ok) {
                refusal = "RELP \(String(decoding: answer.prefix(300), as: UTF8.self))"
            }
        }
        return refusal
    }

    /// The `close` handshake, best effort (the connection goes either way).
    func close() {
        let txnr = take()
        if (try? connection.send(Self.frame(txnr, "close", []))) != nil { _ = try? awaitResponse(txnr) }
        connection.close()
    }

    private func take() -> Int {
        defer { nextTxnr = nextTxnr >= 999_999_999 ? 1 : nextTxnr + 1 }
        return nextTxnr
    }

    /// Reads frames until the `rsp` to `txnr`; a `serverclose` or the end of the stream is a failure.
    private func awaitResponse(_ txnr: Int) throws(SocketConnection.Failure) -> [UInt8] {
        while true {
            while let frame = try nextFrame() {
                if frame.command == "serverclose" { throw SocketConnection.Failure("the RELP server closed the session") }
                if frame.command == "rsp" && frame.txnr == txnr { return frame.data }
            }
            let n = try connection.receive(into: &chunk)
            if n == 0 { throw SocketConnection.Failure("the RELP server closed the connection") }
            received += chunk[..<n]
        }
    }

    /// The first whole frame received, taken off; nil when more bytes are needed.
    func nextFrame() throws(SocketConnection.Failure) -> Frame? {
        guard let parsed = Self.parse(received, from: readOffset) else {
            if readOffset > 0 {  // keep only the unfinished frame
                received.removeFirst(readOffset)
                readOffset = 0
            }
            return nil
        }
        switch parsed {
        case .frame(let frame, let end):
            readOffset = end
            return frame
        case .malformed(let why):
            throw SocketConnection.Failure("malformed RELP frame from the server: \(why)")
        }
    }

    enum Parsed: Equatable {
        case frame(Frame, end: Int)
        case malformed(String)
    }

    /// Parses one frame of `bytes` at `start`; nil when it is not complete yet.
    static func parse(_ bytes: [UInt8], from start: Int = 0) -> Parsed? {
        var i = start
        /// The bytes up to the next space or newline; nil when the bytes end first.
        func token() -> ArraySlice<UInt8>? {
            let begin = i
            while i < bytes.count, bytes[i] != UInt8(ascii: " "), bytes[i] != UInt8(ascii: "\n") { i += 1 }
            return i < bytes.count ? bytes[begin..<i] : nil
        }
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        guard let txnrDigits = token() else { return nil }
        guard let txnr = number(txnrDigits), bytes[i] == UInt8(ascii: " ") else {
            return .malformed("bad transaction number '\(String(decoding: txnrDigits.prefix(20), as: UTF8.self))'")
        }
        i += 1
        guard let commandBytes = token() else { return nil }
        let command = commandBytes.elementsEqual("rsp".utf8) ? "rsp" : String(decoding: commandBytes.prefix(32), as: UTF8.self)
        guard bytes[i] == UInt8(ascii: " ") else { return .malformed("no data length after '\(command)'") }
        i += 1
        guard let lengthDigits = token() else { return nil }
        guard let length = number(lengthDigits) else { return .malformed("bad data length") }
        var data: [UInt8] = []
        if length > 0 {
            guard bytes[i] == UInt8(ascii: " ") else { return .malformed("no data after its length") }
            i += 1
            guard i + length < bytes.count else { return nil }
            data = Array(bytes[i..<(i + length)])
            i += length
        }
        guard i < bytes.count else { return nil }
        guard bytes[i] == UInt8(ascii: "\n") else { return .malformed("no frame trailer") }
        return .frame(Frame(txnr: txnr, command: command, data: data), end: i + 1)
    }

    static func frame(_ txnr: Int, _ command: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendFrame(txnr, command, data[...], to: &out)
        return out
    }

    static let ok = Array("200".utf8)

    static func appendFrame(_ txnr: Int, _ command: String, _ data: ArraySlice<UInt8>, to out: inout [UInt8]) {
        appendDecimal(txnr, to: &out)
        out.append(UInt8(ascii: " "))
        out += command.utf8
        out.append(UInt8(ascii: " "))
        appendDecimal(data.count, to: &out)
        if !data.isEmpty {
            out.append(UInt8(ascii: " "))
            out += data
        }
        out.append(UInt8(ascii: "\n"))
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for i in (0..<count).reversed() { out.append(raw[i]) }
        }
    }
}
