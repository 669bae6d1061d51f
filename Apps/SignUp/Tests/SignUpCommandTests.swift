import AppTestSupport
import Foundation
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

  @Test func answeringNoAtTheSummaryIsAChoiceNotAFailure() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("signup").run(
        [],
        in: directory,
        input: "Blob\nMcBlob\nblob@example.com\n555 010 0199\nno\n"
      )
      #expect(run.status == 0)
      #expect(
        run.output.hasSuffix(
          "Submit? (yes, no to cancel, or edit: name, email, phone): no\n"
            + "\nSign-up cancelled; nothing was submitted.\n"
        )
      )
      #expect(run.errorOutput.isEmpty)
    }
  }

  @Test func ctrlCAtAPromptExitsWith130() async throws {
    try await withTemporaryDirectory { directory in
      let signup = try Program("signup").start([], in: directory)
      signup.write("Blob\n")
      await signup.waitForOutput("the second question") { $0.hasSuffix("Last name: ") }
      signup.send(SIGINT)
      let run = await signup.finish()
      #expect(run.status == 130)
      #expect(!run.isSignalled)
      #expect(run.errorOutput.isEmpty)
    }
  }

  @Test(arguments: [
    (["--fast"], "Unknown option '--fast'."),
    (["now"], "Unexpected argument 'now'."),
  ])
  func argumentIsAUsageError(arguments: [String], message: String) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Program("signup").run(arguments, in: directory)
      #expect(run.status == 64)
      #expect(
        run.errorOutput == """
          Error: \(message)
          Usage: signup
            See 'signup --help' for more information.

          """
      )
    }
  }
}
