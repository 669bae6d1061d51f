/// Everything the sign-up flow asks for, shared by all of its steps.
public struct SignUpData: Equatable, Sendable {
  /// The user's first name.
  public var firstName = ""
  /// The user's last name.
  public var lastName = ""
  /// The user's email address.
  public var email = ""
  /// The user's phone number: digits, after an optional `+`.
  public var phoneNumber = ""

  /// Creates sign-up data.
  ///
  /// - Parameters:
  ///   - firstName: The user's first name.
  ///   - lastName: The user's last name.
  ///   - email: The user's email address.
  ///   - phoneNumber: The user's phone number.
  public init(
    firstName: String = "",
    lastName: String = "",
    email: String = "",
    phoneNumber: String = ""
  ) {
    self.firstName = firstName
    self.lastName = lastName
    self.email = email
    self.phoneNumber = phoneNumber
  }
}
