// signup: a multi-step sign-up flow in the terminal. Its steps share one
// 'Shared<SignUpData>'; the phone number step holds only '$signUpData.phoneNumber', a
// derived 'Shared<String>', and the summary a 'SharedReader<SignUpData>'.
//
//   swift run signup                       answer the questions
//   swift run signup < answers.txt         one answer per line

import CommandLineSupport
import SharingCore
import SignUpKit

let terminal = Terminal(program: "signup")
_ = SignUpArguments.parseOrExit(on: terminal)
Termination.exitOnSignals()

var console = StandardConsole()
let flow = SignUpFlow(signUpData: Shared(value: SignUpData()))
do {
  guard let data = try flow.run(on: &console) else {
    // A choice the user made, not a failure.
    console.write("\nSign-up cancelled; nothing was submitted.\n")
    terminal.exit(.success)
  }
  console.write(
    "\nSigned up \(data.firstName) \(data.lastName) <\(data.email)>, \(data.phoneNumber).\n"
  )
} catch {
  // NB: Ends the unanswered prompt's line.
  if error == .inputEnded { console.write("\n") }
  terminal.fail("\(error)")
}
