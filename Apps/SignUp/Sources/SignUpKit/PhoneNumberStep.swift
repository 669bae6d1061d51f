public import SharingCore

/// The step that asks for a phone number.
///
/// It holds only the phone number, not the whole ``SignUpData``: the flow hands it
/// `$signUpData.phoneNumber`, a `Shared<String>` derived from its own data, so what the step
/// writes is in the flow's data at once.
///
/// ```swift
/// let step = PhoneNumberStep(phoneNumber: $signUpData.phoneNumber)
/// ```
public struct PhoneNumberStep: Sendable {
  /// The phone number, shared with the flow's data.
  @Shared public var phoneNumber: String

  /// Creates the step.
  ///
  /// - Parameter phoneNumber: The phone number, derived from the flow's shared data.
  public init(phoneNumber: Shared<String>) {
    _phoneNumber = phoneNumber
  }

  /// The question for the phone number.
  ///
  /// Spaces, dashes, dots and parentheses are dropped; 7 to 15 digits remain, after an
  /// optional `+`.
  public var question: Question {
    Question("Phone number") { [$phoneNumber] answer throws(InvalidAnswer) in
      let number = try Self.normalized(answer)
      $phoneNumber.withLock { $0 = number }
    }
  }

  private static func normalized(_ answer: String) throws(InvalidAnswer) -> String {
    let answer = answer.trimmingWhitespace
    let plus = answer.hasPrefix("+") ? "+" : ""
    let rest = answer.dropFirst(plus.count).filter { !" -.()".contains($0) }
    guard rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber), (7...15).contains(rest.count)
    else { throw InvalidAnswer("Enter a phone number of 7 to 15 digits, such as 555 010 0199.") }
    return plus + rest
  }
}
