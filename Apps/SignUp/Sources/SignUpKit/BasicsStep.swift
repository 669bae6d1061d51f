import Foundation
public import SharingCore

/// The first step: the user's name and email address.
///
/// It reads and writes all of the flow's ``SignUpData``.
public struct BasicsStep: Sendable {
  /// The data of the whole flow.
  @Shared public var signUpData: SignUpData

  /// Creates the step.
  ///
  /// - Parameter signUpData: The flow's shared data.
  public init(signUpData: Shared<SignUpData>) {
    _signUpData = signUpData
  }

  /// The questions for the user's name.
  public var nameQuestions: [Question] {
    [
      Question("First name") { [$signUpData] answer throws(InvalidAnswer) in
        let name = try Self.name(answer)
        $signUpData.withLock { $0.firstName = name }
      },
      Question("Last name") { [$signUpData] answer throws(InvalidAnswer) in
        let name = try Self.name(answer)
        $signUpData.withLock { $0.lastName = name }
      },
    ]
  }

  /// The question for the user's email address.
  public var emailQuestion: Question {
    Question("Email") { [$signUpData] answer throws(InvalidAnswer) in
      let email = answer.trimmingWhitespace
      let parts = email.split(separator: "@", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
        !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(" ")
      else { throw InvalidAnswer("Enter an email address, such as blob@example.com.") }
      $signUpData.withLock { $0.email = email }
    }
  }

  private static func name(_ answer: String) throws(InvalidAnswer) -> String {
    let name = answer.trimmingWhitespace
    guard !name.isEmpty else { throw InvalidAnswer("Enter a name.") }
    return name
  }
}
