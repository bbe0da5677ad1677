/// The dashboard's files (Sources/SpytailHTTP/Dashboard), compiled into the binary by SwiftPM's `embedInCode`:
/// the page at `/`, its style and scripts under `/assets/`. These are the only files the HTTP face serves;
/// nothing is read from disk. The scripts' unit tests are not among them: the test suite serves those
/// (Tests/EndToEndTests/DashboardUnitTests).
enum DashboardAssets {
    struct Asset: Sendable {
        let path: String
        let bytes: [UInt8]
        let type: String
    }

    static let page = Asset(path: "/", bytes: PackageResources.index_html, type: "text/html; charset=utf-8")

    /// Style and scripts (ES modules), each at `/assets/NAME`.
    static let files: [Asset] = [
        Asset(path: "/assets/dashboard.css", bytes: PackageResources.dashboard_css, type: "text/css; charset=utf-8"),
        Asset(path: "/assets/dashboard.js", bytes: PackageResources.dashboard_js, type: script),
        Asset(path: "/assets/page.js", bytes: PackageResources.page_js, type: script),
        Asset(path: "/assets/entries.js", bytes: PackageResources.entries_js, type: script),
        Asset(path: "/assets/filters.js", bytes: PackageResources.filters_js, type: script),
        Asset(path: "/assets/detail.js", bytes: PackageResources.detail_js, type: script),
        Asset(path: "/assets/drawer.js", bytes: PackageResources.drawer_js, type: script),
        Asset(path: "/assets/history.js", bytes: PackageResources.history_js, type: script),
        Asset(path: "/assets/model.js", bytes: PackageResources.model_js, type: script),
        Asset(path: "/assets/spotlight.js", bytes: PackageResources.spotlight_js, type: script),
        Asset(path: "/assets/favicon.svg", bytes: PackageResources.favicon_svg, type: "image/svg+xml"),
    ]

    private static let script = "text/javascript; charset=utf-8"
}
