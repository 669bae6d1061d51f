import AppTestSupport
import Testing

/// The built `signup`, answered through a pipe.
@Suite struct SignUpCommandTests {
  @Test func pipedAnswersSignUpAndEchoAfterEachPrompt() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("signup").run(
        [],
        in: directory,
        input: "Blob\nMcBlob\nnot an email\nblob@example.com\n555 010 0199\nyes\n"
      )
      #expect(run.status == 0)
      #expect(run.errorOutput.isEmpty)
      #expect(run.output.contains("Email: not an email\n  ✗ Enter an email address"))
      #expect(run.output.hasSuffix("\nSigned up Blob McBlob <blob@example.com>, 5550100199.\n"))
    }
  }

  @Test func inputEndingEarlyExitsWithAnError() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("signup").run([], in: directory, input: "Blob\n")
      #expect(run.status == 1)
      #expect(run.output.hasSuffix("Last name: \n"))
      #expect(
        run.errorOutput
          == "signup: The input ended before sign-up was complete; nothing was submitted.\n"
      )
    }
  }

  @Test func answeringNoAtTheSummaryCancelsWithAnError() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("signup").run(
        [],
        in: directory,
        input: "Blob\nMcBlob\nblob@example.com\n555 010 0199\nno\n"
      )
      #expect(run.status == 1)
      #expect(
        run.output.hasSuffix("Submit? (yes, no to cancel, or edit: name, email, phone): no\n")
      )
      #expect(run.errorOutput == "signup: Sign-up cancelled; nothing was submitted.\n")
    }
  }

  @Test(arguments: [
    (["--fast"], "signup: Unknown option '--fast'."),
    (["now"], "signup: Unexpected argument 'now'."),
  ])
  func argumentIsAUsageError(arguments: [String], message: String) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("signup").run(arguments, in: directory)
      #expect(run.status == 64)
      #expect(run.errorOutput.hasPrefix(message + "\n\nUsage: signup"))
    }
  }
}
