/// One question of a step: a prompt, and what the step does with the answer.
public struct Question: Sendable {
  /// The prompt, such as `Email`.
  public let prompt: String
  private let submit: @Sendable (String) throws(InvalidAnswer) -> Void

  /// Creates a question.
  ///
  /// - Parameters:
  ///   - prompt: The prompt, such as `Email`.
  ///   - submit: Checks an answer and stores it, or throws why it is not valid.
  public init(_ prompt: String, submit: @escaping @Sendable (String) throws(InvalidAnswer) -> Void)
  {
    self.prompt = prompt
    self.submit = submit
  }

  /// Checks an answer and stores it.
  ///
  /// - Parameter answer: The answer as typed.
  /// - Throws: ``InvalidAnswer`` if the answer is not valid; nothing is stored.
  public func answer(_ answer: String) throws(InvalidAnswer) {
    try submit(answer)
  }
}

/// An answer that does not fit its question; the question is asked again.
public struct InvalidAnswer: Error, Equatable, CustomStringConvertible {
  /// What a valid answer looks like.
  public let description: String

  /// Creates the error.
  ///
  /// - Parameter description: What a valid answer looks like.
  public init(_ description: String) {
    self.description = description
  }
}
