Feature: The runner: Framing of protocol v1
  A porting team wires its implementation to conform through standard input and output.
  Every message is one JSON object on one line, and every request gets exactly one answer,
  so that the runner can pipeline requests without ever losing track of them.

  @PROTO-FRAME-004
  Scenario: An answer line longer than the limit is a protocol outcome, not an exhausted memory
    Given the fake implementation "hugeline"
    When the runner runs every vector with a line limit of 1048576 bytes
    Then the outcome of "echo.echo/huge-answer" is "protocol"
    And the outcome of "echo.echo/after-all" is "pass"
    And the run completes

  @PROTO-FRAME-007
  Scenario: An answer that decodes into more values than its budget is a protocol outcome
    Given the fake implementation "many"
    When the runner runs every vector
    Then the outcome of "echo.echo/huge-answer" is "protocol"
    And the outcome of "echo.echo/after-all" is "pass"
