import Prometheus
import SpytailCore
import SpytailIO

/// `/metrics`: the run's figures in the Prometheus text format through swift-prometheus's registry. The run
/// keeps totals; each scrape moves a counter by what its total grew since the last one, so counters never go
/// back (also across reloads, whose totals `RunTelemetry` keeps).
final class MetricsExposition: Sendable {
    private struct State {
        let registry = PrometheusCollectorRegistry()
        var lastTotals: [String: Double] = [:]
        var histogram: ValueHistogram?
    }

    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private let state = Locked(State())

    /// A metric's whole name (unit suffix included, as the exposition shows it) and its help text.
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// The exposition text for the run as it is now.
    func render(_ telemetry: RunTelemetry, viewers: Int, viewerSkips: Int) -> [UInt8] {
        let snapshot = telemetry.current
        let latencies = telemetry.takeLatencies()
        let gaps = telemetry.gapsByReason
        let process = ProcessMetrics.read()
        let checkpointAge = snapshot.checkpointSavedAt.map { RunTelemetry.monotonicSeconds() - $0 }
        return state.withLock { s in
            func counter(_ name: String, _ labels: [(String, String)], _ help: String, _ total: Double) {
                let key = name + labels.map { "|\($0.0)=\($0.1)" }.joined()
                let counter = s.registry.makeCounter(descriptor: Self.descriptor(name, help), labels: labels)
                let grown = total - s.lastTotals[key, default: 0]
                if grown > 0 {
                    counter.increment(by: grown)
                    s.lastTotals[key] = total
                }
            }
            func gauge(_ name: String, _ labels: [(String, String)], _ help: String, _ value: Double) {
                s.registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels).set(value)
            }
            for (source, lines) in snapshot.linesRead {
                counter("spytail_lines_read_total", [("source", source)], "Lines read from the sources' files.", Double(lines))
            }
            for (source, bytes) in snapshot.bytesRead {
                counter("spytail_bytes_read_total", [("source", source)], "Bytes read (decompressed) from the sources' files.", Double(bytes))
            }
            for (category, count) in snapshot.entriesByCategory {
                counter("spytail_entries_total", [("category", category)], "Entries assembled, by category (before filters).", Double(count))
            }
            for (source, count) in snapshot.parseErrorsBySource {
                counter("spytail_parse_errors_total", [("source", source)],
                        "Lines that did not parse in their source's format (kept whole as the message, with parseError).", Double(count))
            }
            for (index, count) in snapshot.excludedByFilter.enumerated() {
                counter("spytail_entries_excluded_total", [("filter", String(index))], "Entries excluded, by the config's filter index.", Double(count))
            }
            for (index, count) in snapshot.writtenByOutput.enumerated() {
                counter("spytail_records_written_total", [("output", String(index))], "Records written, by the config's output index.", Double(count))
            }
            for (index, delivery) in snapshot.deliveryByOutput.enumerated() {
                guard let delivery else { continue }
                counter("spytail_records_acknowledged_total", [("output", String(index))],
                        "Records a network output's destination acknowledged (checkpoints follow these).", Double(delivery.acknowledged))
                gauge("spytail_records_unacknowledged", [("output", String(index))],
                      "Records a network output holds that its destination has not acknowledged yet.", Double(delivery.taken - delivery.acknowledged))
            }
            gauge("spytail_reading_paused", [], "1 while reading is paused behind an output (a full disk, a network destination down or busy).",
                  snapshot.stalledOn == nil ? 0 : 1)
            for reason in GapReport.Reason.allCases.map(\.rawValue) where gaps[reason] == nil {
                counter("spytail_gaps_total", [("reason", reason)], "Gap records (bytes lost or skipped), by reason.", 0)
            }
            for (reason, count) in gaps {
                counter("spytail_gaps_total", [("reason", reason)], "Gap records (bytes lost or skipped), by reason.", Double(count))
            }
            counter("spytail_problems_total", [], "Problems reported on stderr.", Double(snapshot.problems))
            counter("spytail_viewer_entries_skipped_total", [], "Entries a viewer did not get because it fell behind.", Double(viewerSkips))
            for state in SpyState.allCases {
                gauge("spytail_state", [("state", state.rawValue)], "1 for the current state.", state == snapshot.state ? 1 : 0)
            }
            gauge("spytail_files_open", [], "Files held open.", Double(snapshot.filesOpen))
            gauge("spytail_watches", [], "Folders watched.", Double(snapshot.watches))
            gauge("spytail_bytes_behind", [], "Bytes the followed files hold past what was exported.", Double(snapshot.bytesBehind))
            gauge("spytail_checkpoint_age_seconds", [], "Seconds since checkpoints were last saved (-1: never).", checkpointAge ?? -1)
            gauge("spytail_viewers", [], "Viewers streaming (/api/stream).", Double(viewers))
            if s.histogram == nil {
                s.histogram = s.registry.makeValueHistogram(
                    descriptor: Self.descriptor("spytail_export_latency_seconds",
                                                "From a batch of file events seen to its records written (one observation per batch)."),
                    labels: [], buckets: Self.latencyBuckets)
            }
            for latency in latencies { s.histogram?.record(latency) }
            gauge("process_resident_memory_bytes", [], "Resident memory size in bytes.", process.residentBytes)
            gauge("process_virtual_memory_bytes", [], "Virtual memory size in bytes.", process.virtualBytes)
            counter("process_cpu_seconds_total", [], "Total user and system CPU time spent in seconds.", process.cpuSeconds)
            gauge("process_open_fds", [], "Number of open file descriptors.", process.openFDs)
            gauge("process_max_fds", [], "Maximum number of open file descriptors.", process.maxFDs)
            gauge("process_start_time_seconds", [], "Start time of the process since unix epoch in seconds.", process.startTimeSeconds)
            var out: [UInt8] = []
            s.registry.emit(into: &out)
            return out
        }
    }
}
