import SharingCore
import SignUpKit
import Testing

/// The whole flow, answered from a script.
@Suite struct SignUpFlowTests {
  @Test func invalidAnswersAreAskedAgainUntilTheUserSubmits() throws {
    @Shared(value: SignUpData()) var signUpData
    var console = ScriptedConsole([
      "Blob", "", "McBlob", "blob", "blob@example.com", "555", "555 010 0199", "yes",
    ])

    let submitted = try SignUpFlow(signUpData: $signUpData).run(on: &console)

    let expected = SignUpData(
      firstName: "Blob",
      lastName: "McBlob",
      email: "blob@example.com",
      phoneNumber: "5550100199"
    )
    #expect(submitted == expected)
    #expect(signUpData == expected)
    #expect(
      console.transcript == """
        Step 1 of 3: about you
        First name: Blob
        Last name: 
          ✗ Enter a name.
        Last name: McBlob
        Email: blob
          ✗ Enter an email address, such as blob@example.com.
        Email: blob@example.com

        Step 2 of 3: phone number
        Phone number: 555
          ✗ Enter a phone number of 7 to 15 digits, such as 555 010 0199.
        Phone number: 555 010 0199

        Step 3 of 3: summary
          Name:   Blob McBlob
          Email:  blob@example.com
          Phone:  5550100199
        Submit? (yes, no to cancel, or edit: name, email, phone): yes

        """
    )
  }

  @Test func phoneNumberEditedFromTheSummaryIsShownInTheSummary() throws {
    @Shared(value: SignUpData()) var signUpData
    var console = ScriptedConsole([
      "Blob", "McBlob", "blob@example.com", "555 010 0199", "phone", "+1 555 010 0100", "yes",
    ])

    let submitted = try SignUpFlow(signUpData: $signUpData).run(on: &console)

    #expect(submitted?.phoneNumber == "+15550100100")
    #expect(
      console.transcript.hasSuffix(
        "  Phone:  +15550100100\nSubmit? (yes, no to cancel, or edit: name, email, phone): yes\n"
      )
    )
  }

  @Test func answeringNoAtTheSummaryEndsTheFlowWithNothingSubmitted() throws {
    @Shared(value: SignUpData()) var signUpData
    var console = ScriptedConsole([
      "Blob", "McBlob", "blob@example.com", "555 010 0199", "maybe", "no",
    ])

    #expect(try SignUpFlow(signUpData: $signUpData).run(on: &console) == nil)
    #expect(
      console.transcript.hasSuffix(
        """
        : maybe
          ✗ Answer yes, no, name, email or phone.
        Submit? (yes, no to cancel, or edit: name, email, phone): no

        """
      )
    )
  }

  @Test func inputEndingBeforeSubmittingStopsTheFlow() {
    @Shared(value: SignUpData()) var signUpData
    var console = ScriptedConsole(["Blob", "McBlob"])

    #expect(throws: SignUpError.inputEnded) {
      try SignUpFlow(signUpData: $signUpData).run(on: &console)
    }
    #expect(signUpData == SignUpData(firstName: "Blob", lastName: "McBlob"))
    #expect(console.transcript.hasSuffix("Email: "))
  }
}
