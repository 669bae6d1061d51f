public import SharingCore

/// The last step: shows everything entered, and lets the user submit or go back to edit.
///
/// It only reads the flow's data, through a `SharedReader`, so it shows edits made by the
/// other steps as soon as they are made.
public struct SummaryStep: Sendable {
  /// What the user can do from the summary.
  public enum Choice: Equatable, Sendable {
    /// Finish the flow.
    case submit
    /// Leave the flow without submitting.
    case cancel
    /// Go back to the name questions.
    case editName
    /// Go back to the email question.
    case editEmail
    /// Go back to the phone number step.
    case editPhoneNumber
  }

  /// The flow's data, read-only.
  @SharedReader public var signUpData: SignUpData

  /// Creates the step.
  ///
  /// - Parameter signUpData: A read-only view of the flow's shared data.
  public init(signUpData: SharedReader<SignUpData>) {
    _signUpData = signUpData
  }

  /// The data, one field per line.
  public var summary: String {
    """
      Name:   \(signUpData.firstName) \(signUpData.lastName)
      Email:  \(signUpData.email)
      Phone:  \(signUpData.phoneNumber)
    """
  }

  /// The prompt for the user's choice.
  public static let prompt = "Submit? (yes, no to cancel, or edit: name, email, phone)"

  /// The choice an answer names.
  ///
  /// - Parameter answer: The answer as typed, such as `yes`, `no` or `phone`.
  /// - Returns: The choice.
  /// - Throws: ``InvalidAnswer`` if the answer names no choice.
  public static func choice(_ answer: String) throws(InvalidAnswer) -> Choice {
    switch answer.trimmingWhitespace.lowercased() {
    case "y", "yes", "submit": .submit
    case "n", "no", "cancel", "quit": .cancel
    case "name": .editName
    case "email": .editEmail
    case "phone": .editPhoneNumber
    default: throw InvalidAnswer("Answer yes, no, name, email or phone.")
    }
  }
}
