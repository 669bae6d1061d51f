import SharingCore
import SharingTesting
import SignUpKit
import Testing

/// Each step on its own, holding the part of the flow's data it needs.
@Suite struct SignUpStepsTests {
  @Test func phoneNumberWrittenThroughTheDerivedSharedIsSeenByTheFlow() throws {
    @Shared(value: SignUpData(firstName: "Blob")) var signUpData
    let step = PhoneNumberStep(phoneNumber: $signUpData.phoneNumber)
    let tracker = SharedChangeTracker()

    try tracker.track { try step.question.answer(" (555) 010-0199 ") }

    #expect(signUpData == SignUpData(firstName: "Blob", phoneNumber: "5550100199"))
    tracker.assert {
      $signUpData.withLock { $0.phoneNumber = "5550100199" }
    }
  }

  @Test func summaryReaderSeesEditsMadeAfterItWasCreated() throws {
    @Shared(value: SignUpData(firstName: "Blob", lastName: "McBlob")) var signUpData
    let summary = SummaryStep(signUpData: SharedReader($signUpData))
    let basics = BasicsStep(signUpData: $signUpData)

    try basics.emailQuestion.answer("blob@example.com")
    try PhoneNumberStep(phoneNumber: $signUpData.phoneNumber).question.answer("+44 20 7946 0958")

    #expect(
      summary.summary == """
          Name:   Blob McBlob
          Email:  blob@example.com
          Phone:  +442079460958
        """
    )
  }

  @Test func nameQuestionsFillInBothNames() throws {
    @Shared(value: SignUpData()) var signUpData
    let questions = BasicsStep(signUpData: $signUpData).nameQuestions
    try questions[0].answer("  Blob ")
    try questions[1].answer("McBlob")
    #expect(signUpData == SignUpData(firstName: "Blob", lastName: "McBlob"))
  }

  @Test(arguments: ["", "blob", "blob@", "@example.com", "blob@example", "bl ob@example.com"])
  func invalidEmailIsRefusedAndNotStored(answer: String) {
    @Shared(value: SignUpData(email: "old@example.com")) var signUpData
    #expect(throws: InvalidAnswer.self) {
      try BasicsStep(signUpData: $signUpData).emailQuestion.answer(answer)
    }
    #expect(signUpData.email == "old@example.com")
  }

  @Test(arguments: ["", "12345", "555-CALL-NOW", "1234567890123456", "+", "++5550100199"])
  func invalidPhoneNumberIsRefusedAndNotStored(answer: String) {
    @Shared(value: "5550100199") var phoneNumber
    #expect(throws: InvalidAnswer.self) {
      try PhoneNumberStep(phoneNumber: $phoneNumber).question.answer(answer)
    }
    #expect(phoneNumber == "5550100199")
  }

  @Test(arguments: [
    ("yes", SummaryStep.Choice.submit), ("Y", .submit), ("name", .editName),
    ("email", .editEmail), (" phone ", .editPhoneNumber), ("no", .cancel), ("N", .cancel),
    ("cancel", .cancel),
  ])
  func summaryChoicesAreRecognised(answer: String, choice: SummaryStep.Choice) throws {
    #expect(try SummaryStep.choice(answer) == choice)
  }
}
