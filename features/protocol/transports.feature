Feature: Stdio lifetime
  A process serving protocol lines over stdio lives as long as its input: when the input
  ends, it exits. (How the runner copes with one that crashes, hangs or floods is told in
  features/runner.)

  @PROTO-STDIO-003
  Scenario: End of input means exit
    Given an implementation under test
    When its standard input is closed
    Then it exits within 5 seconds
