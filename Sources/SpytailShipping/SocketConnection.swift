import Glibc

/// A blocking TCP or UDP socket to `host:port` with send and receive timeouts: what the syslog transports
/// write through. Errors come back as text for the delivery messages (`connection refused (errno 111)`).
final class SocketConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ what: String, errno code: Int32) { description = "\(what): \(String(cString: strerror(code))) (errno \(code))" }
        init(_ text: String) { description = text }
    }

    private(set) var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Resolves `host` and connects to the first address that answers; `timeout` bounds the connect and
    /// every later send and receive.
    static func connect(host: String, port: Int, datagram: Bool, timeout: Duration) throws(Failure) -> SocketConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else { throw Failure("cannot resolve \(host): \(String(cString: gai_strerror(rc)))") }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            if !datagram {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return SocketConnection(fd: fd) }
            lastError = errno
            Glibc.close(fd)
        }
        throw Failure("cannot connect to \(host):\(port)", errno: lastError)
    }

    /// Writes all of `bytes` (a stream socket) or sends them as one datagram.
    func send(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(errno == EAGAIN ? "send timed out" : "send failed", errno: errno)
            }
            sent += n
        }
    }

    func send(_ bytes: [UInt8]) throws(Failure) {
        var failure: Failure?
        bytes.withUnsafeBytes { raw in
            do throws(Failure) { try send(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads what is there into `bytes` (waits up to the timeout); 0 when the peer closed.
    func receive(into bytes: inout [UInt8]) throws(Failure) -> Int {
        var result: Result<Int, Failure> = .success(0)
        bytes.withUnsafeMutableBytes { raw in
            do throws(Failure) { result = .success(try receive(into: raw)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Reads what is there (waits up to the timeout); 0 when the peer closed. Acknowledges at once
    /// (TCP_QUICKACK, which Linux clears after a while): a server answering frame by frame with small
    /// writes (RELP's `rsp`) would otherwise wait on our delayed ACK under Nagle, 40 ms a round.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw Failure(errno == EAGAIN ? "no answer within the timeout" : "receive failed", errno: errno)
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
