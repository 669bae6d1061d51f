/// Renders results as a Markdown table, aligned for reading in a terminal.
///
/// A suite whose results have instruction counts shows them first, then the timed medians.
/// A ratio target is judged on the instruction ratio (✓ or ✗); a goal that is information
/// only, such as a time or a size, is marked (✓) or (✗).
struct Table {
  let suite: Suite
  let results: [Measurement.Result]

  func render() -> String {
    let unit = suite.unit.rawValue
    let counted = results.contains { $0.instructions != nil }
    let header =
      counted
      ? ["case", "instr/op", "floor", "floor instr/op", "ratio", unit, "floor \(unit)", "ratio"]
      : ["case", unit, "floor", "floor \(unit)", "ratio"]
    var rows = [header + ["target", ""]]
    for result in results {
      let digits = suite.unit.digits
      var row = [result.benchmark.name]
      if counted {
        let instructions = result.instructions
        row += [
          instructions.map { format($0.operation, digits: 0) } ?? "—",
          result.benchmark.baselineName,
          instructions.map { format($0.baseline, digits: 0) } ?? "—",
          instructions.map { ratio($0.ratio) } ?? "—",
          number(result.median, digits: digits),
          number(result.baselineMedian, digits: digits),
          ratio(result.ratio),
        ]
      } else {
        row += [
          number(result.median, digits: digits),
          result.benchmark.baselineName,
          number(result.baselineMedian, digits: digits),
          ratio(result.ratio),
        ]
      }
      row += [
        target(result.benchmark.target),
        verdict(result.meetsTarget) ?? verdict(result.meetsGoal).map { "(\($0))" } ?? "",
      ]
      rows.append(row)
    }
    return render(rows, numeric: counted ? [1, 3, 4, 5, 6, 7] : [1, 3, 4])
  }

  private func render(_ rows: [[String]], numeric: Set<Int>) -> String {
    let widths = (0..<rows[0].count).map { column in
      rows.map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      let padded = cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return numeric.contains(column) ? padding + cell : cell + padding
      }
      return "| " + padded.joined(separator: " | ") + " |"
    }
    let rule = widths.enumerated().map { column, width in
      numeric.contains(column)
        ? String(repeating: "-", count: width + 1) + ":"
        : String(repeating: "-", count: width + 2)
    }
    var lines = ["### \(suite.name)", "", line(rows[0]), "|" + rule.joined(separator: "|") + "|"]
    lines += rows.dropFirst().map(line)
    if !suite.notes.isEmpty {
      lines.append("")
      lines += suite.notes
    }
    return lines.joined(separator: "\n")
  }

  private func number(_ value: Double, digits: Int) -> String {
    value.isNaN ? "—" : format(value, digits: digits)
  }

  private func ratio(_ value: Double) -> String {
    value.isNaN ? "—" : format(value, digits: 2) + "×"
  }

  private func target(_ target: Benchmark.Target) -> String {
    switch target {
    case .ratio(let limit): "≤ \(format(limit, digits: 1))×"
    case .atMost(let limit):
      "≤ \(format(limit, digits: limit == limit.rounded() ? 0 : suite.unit.digits))"
    case .none: "—"
    }
  }

  private func verdict(_ isMet: Bool?) -> String? {
    isMet.map { $0 ? "✓" : "✗" }
  }
}

/// Formats a number with a fixed count of fractional digits.
func format(_ value: Double, digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = "\(Int(rounded.rounded(.towardZero)))"
  if rounded < 0, Int(rounded.rounded(.towardZero)) == 0 { text = "-0" }
  guard digits > 0 else { return text }
  let fraction = Int((abs(rounded) * scale).rounded()) % Int(scale)
  let digitsText = String(fraction)
  return text + "." + String(repeating: "0", count: digits - digitsText.count) + digitsText
}
