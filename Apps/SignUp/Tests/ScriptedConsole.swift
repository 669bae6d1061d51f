import SignUpKit

/// A console that answers from a script, and records the conversation as a terminal would
/// show it.
struct ScriptedConsole: Console {
  var answers: [String]
  var transcript = ""

  init(_ answers: [String]) {
    self.answers = answers
  }

  mutating func readLine() -> String? {
    guard !answers.isEmpty else { return nil }
    let answer = answers.removeFirst()
    transcript += "\(answer)\n"
    return answer
  }

  mutating func write(_ text: String) {
    transcript += text
  }
}
