import CProbes
import Foundation
import Synchronization

/// Counts the instructions a measured part executes, when the program runs under callgrind.
///
/// `scripts/benchmark` runs the program as `valgrind --tool=callgrind
/// --callgrind-out-file=FILE` with `SHARING_BENCHMARK_CALLGRIND_OUT=FILE` in its
/// environment. Each measured part zeroes callgrind's counters when it starts and asks for a
/// dump when it ends; callgrind writes dump `n` to `FILE.n`, which the counter reads back.
/// Instructions do not move with the machine's load, so figures compare across runs.
final class InstructionCounter: Sendable {
  /// The counter, if the program runs under callgrind for `scripts/benchmark`.
  static let current: InstructionCounter? = {
    guard probes_isRunningOnValgrind() != 0,
      let output = ProcessInfo.processInfo.environment["SHARING_BENCHMARK_CALLGRIND_OUT"]
    else { return nil }
    return InstructionCounter(output: output)
  }()

  private let output: String
  private let dumps = Atomic<Int>(0)

  private init(output: String) {
    self.output = output
  }

  @inline(__always)
  func start() {
    probes_zeroInstructionCounts()
  }

  /// The instructions executed since ``start()``, by every thread.
  @inline(__always)
  func stop() -> UInt64 {
    probes_dumpInstructionCounts("measured part")
    return readDump()
  }

  @inline(never)
  private func readDump() -> UInt64 {
    let path = "\(output).\(dumps.add(1, ordering: .relaxed).newValue)"
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
      let count = UInt64(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces))
    else {
      fatalError("No callgrind dump at \(path): run the benchmarks through scripts/benchmark.")
    }
    return count
  }
}
