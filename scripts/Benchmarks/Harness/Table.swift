/// Renders results as a Markdown table, aligned for reading in a terminal.
struct Table {
  let suite: Suite
  let results: [Measurement.Result]

  func render() -> String {
    let unit = suite.unit.rawValue
    var rows = [["case", unit, "floor", "floor \(unit)", "ratio", "target", ""]]
    for result in results {
      let target: String
      switch result.benchmark.target {
      case .ratio(let limit): target = "≤ \(format(limit, digits: 1))×"
      case .atMost(let limit): target = "≤ \(format(limit, digits: suite.unit.digits))"
      case .none: target = "—"
      }
      let verdict =
        switch result.meetsTarget {
        case true?: "✓"
        case false?: "✗"
        case nil: ""
        }
      rows.append([
        result.benchmark.name,
        format(result.median, digits: suite.unit.digits),
        result.benchmark.baselineName,
        result.baselineMedian.isNaN
          ? "—" : format(result.baselineMedian, digits: suite.unit.digits),
        result.ratio.isNaN ? "—" : format(result.ratio, digits: 2) + "×",
        target,
        verdict,
      ])
    }
    let widths = (0..<rows[0].count).map { column in
      rows.map { $0[column].count }.max() ?? 0
    }
    let numeric: Set = [1, 3, 4]
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
