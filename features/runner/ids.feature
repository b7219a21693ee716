Feature: The runner: Request ids
  The runner keeps many requests in flight and matches answers by id, so an implementation
  may answer in any order, but must echo each id exactly.

  @PROTO-ID-002
  Scenario: Answers that come back out of order still pass
    Given the fake implementation "reverse"
    When the runner runs every vector
    Then every outcome is "pass"

  @PROTO-ID-003
  Scenario: An answer with an id nobody sent is a protocol outcome
    Given the fake implementation "unknownid"
    When the runner runs every vector
    Then the outcome of "echo.echo/bad-id" is "protocol"
    And the outcome of "echo.echo/after-all" is "pass"

  @PROTO-ID-003
  Scenario: A line that is not an answer is a protocol outcome
    Given the fake implementation "nonjson"
    When the runner runs every vector
    Then the outcome of "echo.echo/garbage" is "protocol"
    And the run completes
