import Foundation

/// Instruction counts of a counting run, read back by the timed run that shows them.
///
/// A counting run prints one tab-separated line per benchmark: suite, case, instructions
/// per operation, and instructions per operation of its baseline.
struct InstructionCounts {
  private var counts: [String: Measurement.Instructions] = [:]

  init(contentsOf path: String) {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 4, let operation = Double(fields[2]), let baseline = Double(fields[3])
      else { continue }
      counts["\(fields[0])\t\(fields[1])"] = Measurement.Instructions(
        operation: operation,
        baseline: baseline
      )
    }
  }

  subscript(suite: Suite, benchmark: Benchmark) -> Measurement.Instructions? {
    counts["\(suite.name)\t\(benchmark.name)"]
  }

  /// The line a counting run prints for a benchmark.
  static func line(
    suite: Suite,
    benchmark: Benchmark,
    _ instructions: Measurement.Instructions
  ) -> String {
    "\(suite.name)\t\(benchmark.name)\t\(instructions.operation)\t\(instructions.baseline)"
  }
}
