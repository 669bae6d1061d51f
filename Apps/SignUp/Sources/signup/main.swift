// signup: a multi-step sign-up flow in the terminal. Its steps share one
// 'Shared<SignUpData>'; the phone number step holds only '$signUpData.phoneNumber', a
// derived 'Shared<String>', and the summary a 'SharedReader<SignUpData>'.
//
//   swift run signup                       answer the questions
//   swift run signup < answers.txt         one answer per line

import Foundation
import SharingCore
import SignUpKit

/// Prints a message on standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("signup: \(message)\n".utf8))
  exit(status)
}

let usage = """
  Usage: signup

  Signs you up in three steps: about you, phone number, summary. Reads the answers
  from standard input, one per line, so it also runs from a file or a pipe.

  Options:
    -h, --help    Show this help.
  """

switch Array(CommandLine.arguments.dropFirst()) {
case []:
  break
case ["-h"], ["--help"]:
  print(usage)
  exit(0)
case let arguments:
  fail("Unexpected argument '\(arguments[0])'.\n\n\(usage)", status: 64)
}

var console = StandardConsole()
let flow = SignUpFlow(signUpData: Shared(value: SignUpData()))
do {
  let data = try flow.run(on: &console)
  console.write(
    "\nSigned up \(data.firstName) \(data.lastName) <\(data.email)>, \(data.phoneNumber).\n"
  )
} catch {
  // NB: Ends the unanswered prompt's line.
  console.write("\n")
  fail("\(error)", status: 1)
}
