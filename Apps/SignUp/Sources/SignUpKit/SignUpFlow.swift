public import SharingCore

/// The multi-step sign-up flow: about you, phone number, summary.
///
/// The flow owns one `Shared<SignUpData>` and hands each step only what it needs:
///
/// ```swift
/// BasicsStep(signUpData: $signUpData)                  // Shared<SignUpData>
/// PhoneNumberStep(phoneNumber: $signUpData.phoneNumber) // Shared<String>, derived
/// SummaryStep(signUpData: SharedReader($signUpData))    // read-only
/// ```
///
/// An answer that is not valid is followed by a hint, and its question is asked again.
public struct SignUpFlow: Sendable {
  /// The data of every step.
  @Shared public var signUpData: SignUpData

  /// Creates the flow.
  ///
  /// - Parameter signUpData: The data the steps fill in.
  public init(signUpData: Shared<SignUpData>) {
    _signUpData = signUpData
  }

  /// Runs the flow until the user submits, or chooses not to.
  ///
  /// - Parameter console: Where to ask the questions and read the answers.
  /// - Returns: The submitted data, or `nil` if the user answered no at the summary.
  /// - Throws: ``SignUpError/inputEnded`` if the input ends first.
  public func run(on console: inout some Console) throws(SignUpError) -> SignUpData? {
    let basics = BasicsStep(signUpData: $signUpData)
    let summary = SummaryStep(signUpData: SharedReader($signUpData))

    console.write("Step 1 of 3: about you\n")
    try ask(basics.nameQuestions + [basics.emailQuestion], on: &console)
    console.write("\nStep 2 of 3: phone number\n")
    try ask([PhoneNumberStep(phoneNumber: $signUpData.phoneNumber).question], on: &console)
    while true {
      console.write("\nStep 3 of 3: summary\n\(summary.summary)\n")
      switch try choice(on: &console) {
      case .submit:
        return signUpData
      case .cancel:
        return nil
      case .editName:
        try ask(basics.nameQuestions, on: &console)
      case .editEmail:
        try ask([basics.emailQuestion], on: &console)
      case .editPhoneNumber:
        try ask([PhoneNumberStep(phoneNumber: $signUpData.phoneNumber).question], on: &console)
      }
    }
  }

  private func ask(_ questions: [Question], on console: inout some Console) throws(SignUpError) {
    for question in questions {
      while true {
        console.write("\(question.prompt): ")
        guard let answer = console.readLine() else { throw .inputEnded }
        do {
          try question.answer(answer)
          break
        } catch {
          console.write("  ✗ \(error)\n")
        }
      }
    }
  }

  private func choice(on console: inout some Console) throws(SignUpError) -> SummaryStep.Choice {
    while true {
      console.write("\(SummaryStep.prompt): ")
      guard let answer = console.readLine() else { throw .inputEnded }
      do {
        return try SummaryStep.choice(answer)
      } catch {
        console.write("  ✗ \(error)\n")
      }
    }
  }
}

/// Why the flow stopped before the user could submit or cancel.
public enum SignUpError: Error, Equatable, CustomStringConvertible {
  /// The input ended before the flow was complete.
  case inputEnded

  /// A description of the error for the user.
  public var description: String {
    switch self {
    case .inputEnded: "The input ended before sign-up was complete; nothing was submitted."
    }
  }
}
