import SpytailCore
@testable import SpytailIO

/// Opens the simulated run's outputs (`SimulatedHost.config`): the one at `:601` is the output file on the
/// simulated disk, the one at `:514` the destination that acknowledges later.
final class SimulatedOpener: RemoteOutputOpener, @unchecked Sendable {
    let disk: SimulatedDisk
    let destination: SimulatedDestination?

    init(disk: SimulatedDisk, destination: SimulatedDestination?) {
        self.disk = disk
        self.destination = destination
    }

    func open(_ output: SpytailConfig.Output, vocabulary: Vocabulary, resolve: (String) -> String) throws(SinkError) -> OpenOutput {
        if output.destination.name.hasSuffix(":601") { return try disk.open(vocabulary: vocabulary) }
        guard let destination else { throw SinkError(destination: output.destination.name, cause: .unusable("no destination in this schedule")) }
        return try destination.open(output, vocabulary: vocabulary, resolve: resolve)
    }
}
