import Foundation
import Glibc
import SpytailTestSupport

/// A small client of the W3C WebDriver HTTP API, driving Debian's `chromium` (headless) through its
/// `chromedriver` on a loopback port. Requests go through the real curl, as the other HTTP tests' do.
final class WebDriver {
    static let chromedriver = "/usr/bin/chromedriver", chromium = "/usr/bin/chromium"
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: chromedriver) && FileManager.default.isExecutableFile(atPath: chromium)
    }
    static let missing = "Debian's chromium and chromium-driver are missing: scripts/install-deps installs them"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The JSON key under which WebDriver names an element.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    let directory: TemporaryDirectory
    private let driver: Process
    private let port: Int
    private(set) var session = ""

    /// Starts chromedriver and a headless browser with a fresh profile in `directory`.
    init(in directory: TemporaryDirectory, width: Int = 1280, height: Int = 900) throws {
        self.directory = directory
        port = try PrometheusScrapeTests.freePort()
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: Self.chromedriver)
        driver.arguments = ["--port=\(port)", "--log-path=\(directory.file("chromedriver.log"))"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        guard RunTools.waitUntil(30, { (((try? self.call("GET", "/status"))?["value"] as? [String: Any])?["ready"] as? Bool) == true }) else {
            throw Failure(description: "chromedriver did not become ready on port \(port)")
        }
        var args = ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--window-size=\(width),\(height)",
                    "--user-data-dir=\(directory.file("chromium-profile"))"]
        if getuid() == 0 { args.append("--no-sandbox") }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": ["binary": Self.chromium, "args": args],
            "goog:loggingPrefs": ["browser": "ALL"],
        ]]]
        let reply = try call("POST", "/session", capabilities, timeout: 60)
        guard let id = (reply["value"] as? [String: Any])?["sessionId"] as? String else { throw Failure(description: "no session: \(reply)") }
        session = id
    }

    /// Ends the browser and the driver.
    func quit() {
        if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)") }
        session = ""
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
    }

    deinit { quit() }

    // MARK: commands

    func open(_ url: String) throws { _ = try command("POST", "url", ["url": url]) }

    var url: String { (try? command("GET", "url")) as? String ?? "" }

    /// Runs `script` (a function body; `arguments[i]`) in the page and returns what it returns.
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try command("POST", "execute/sync", ["script": script, "args": arguments])
    }

    /// The elements `selector` matches now (WebDriver element ids).
    func elements(_ selector: String) throws -> [String] {
        let value = try command("POST", "elements", ["using": "css selector", "value": selector])
        return (value as? [[String: Any]] ?? []).compactMap { $0[Self.elementKey] as? String }
    }

    /// The first element `selector` matches, waiting up to `seconds` for it.
    func element(_ selector: String, within seconds: Double = 10) throws -> String {
        var found: String?
        _ = RunTools.waitUntil(seconds) {
            found = (try? self.elements(selector))?.first
            return found != nil
        }
        guard let found else { throw Failure(description: "no element matches \(selector) after \(seconds) s") }
        return found
    }

    func click(_ selector: String) throws {
        _ = try command("POST", "element/\(try element(selector))/click", [String: Any]())
    }

    func type(_ selector: String, _ text: String) throws {
        _ = try command("POST", "element/\(try element(selector))/value", ["text": text])
    }

    /// Presses keys on whatever has the focus (`\u{E00C}` is Escape in WebDriver's key codes).
    func press(_ key: String) throws {
        let down = ["type": "keyDown", "value": key], up = ["type": "keyUp", "value": key]
        _ = try command("POST", "actions", ["actions": [["type": "key", "id": "keyboard", "actions": [down, up]]]])
    }

    /// Drags the mouse across the element `selector` from x `from` to x `to` (pixels from its left edge) at half
    /// its height: pointer down, moves, up, as a person's drag.
    func drag(_ selector: String, from: Int, to: Int) throws {
        let target = [Self.elementKey: try element(selector)]
        // Offsets are from the element's centre in W3C actions.
        let width = (try run("return document.querySelector(arguments[0]).getBoundingClientRect().width", [selector]) as? Double) ?? 100
        let x = { (left: Int) in left - Int(width / 2) }
        let steps: [[String: Any]] = [
            ["type": "pointerMove", "origin": target, "x": x(from), "y": 0, "duration": 0],
            ["type": "pointerDown", "button": 0],
            ["type": "pointerMove", "origin": target, "x": x((from + to) / 2), "y": 0, "duration": 50],
            ["type": "pointerMove", "origin": target, "x": x(to), "y": 0, "duration": 50],
            ["type": "pointerUp", "button": 0],
        ]
        _ = try command("POST", "actions", ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": steps]]])
    }

    /// Sets the browser window's size (a phone's: 390 × 844).
    func resize(width: Int, height: Int) throws {
        _ = try command("POST", "window/rect", ["width": width, "height": height])
    }

    /// Emulates the system's colour scheme (`light` or `dark`) through the DevTools protocol.
    func prefersColorScheme(_ scheme: String) throws {
        _ = try command("POST", "goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia",
                                                      "params": ["features": [["name": "prefers-color-scheme", "value": scheme]]]])
    }

    /// Forgets every cookie of the current page's site (the session cookie is HttpOnly: a script cannot).
    func deleteCookies() throws { _ = try command("DELETE", "cookie") }

    /// Saves the page as PNG at `path`.
    func screenshot(_ path: String) throws {
        guard let base64 = try command("GET", "screenshot") as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The browser's console messages since the last call (chromedriver's log endpoint).
    func consoleLog() throws -> [(level: String, message: String)] {
        let value = try command("POST", "se/log", ["type": "browser"])
        return (value as? [[String: Any]] ?? []).map { (($0["level"] as? String) ?? "", ($0["message"] as? String) ?? "") }
    }

    /// Waits up to `seconds` for `script` to return true in the page.
    func waitFor(_ seconds: Double = 10, _ script: String) -> Bool {
        RunTools.waitUntil(seconds) { ((try? self.run(script)) as? Bool) == true }
    }

    // MARK: the wire

    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        try call(method, "/session/\(session)/\(path)", body)["value"] ?? nil
    }

    /// One WebDriver request; a WebDriver error becomes a `Failure` naming it.
    @discardableResult
    private func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Int = 30) throws -> [String: Any] {
        var arguments = ["-s", "-X", method, "--max-time", String(timeout), "http://127.0.0.1:\(port)\(path)"]
        var input: Data?
        if let body {
            input = try JSONSerialization.data(withJSONObject: body)
            arguments += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
        }
        let result = try Harness.run("/usr/bin/curl", arguments, stdin: input)
        guard let object = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw Failure(description: "\(method) \(path): not a WebDriver answer: \(result.stdoutText.prefix(300)) \(result.stderr)")
        }
        if let value = object["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "\(method) \(path): \(error): \((value["message"] as? String ?? "").prefix(400))")
        }
        return object
    }
}
