Feature: The answer artifact a client receives
  The server delivers the answer as an artifact: one text part with the clean
  text, whose metadata carries the citations, and beside it the data parts those
  citations name, each with its GID in metadata.dataPartId. A client joins a
  citation to the part by that GID and applies the locator to the part's
  data.value. Only a citation passes a connector's output through to the client.

  Background:
    Given an implementation under test

  @MARKER-ARTIFACT-001 @MARKER-ARTIFACT-002 @MARKER-ARTIFACT-003 @MARKER-LOCATE-002
  Scenario: The seed's PubMed answer, followed from citation to finding
    Given the data parts:
      | id           | value                                                                                  |
      | tool_data_01 | {"unused": true}                                                                       |
      | tool_data_02 | {"results": [{"findings": "Doxorubicin carries a dose-dependent risk of cardiomyopathy."}]} |
      | tool_data_03 | {"limit": "450 mg/m²"}                                                                 |
    And the model writes:
      """
      Doxorubicin is associated with dose-dependent cardiotoxicity{cite:tool_data_02:/results/0/findings}. The recommended cumulative dose limit is 450 mg/m²{cite:tool_data_03:}.
      """
    When the server builds the answer artifact
    Then the artifact holds the text part:
      """json
      {"text": "Doxorubicin is associated with dose-dependent cardiotoxicity. The recommended cumulative dose limit is 450 mg/m².",
       "metadata": {"citations": [
         {"data_part_id": "tool_data_02", "offset": 61, "locator": "/results/0/findings"},
         {"data_part_id": "tool_data_03", "offset": 113, "locator": ""}]}}
      """
    And the artifact carries the data parts ["tool_data_02", "tool_data_03"]
    When the client follows citation 1 of the artifact
    Then it resolves to the value "Doxorubicin carries a dose-dependent risk of cardiomyopathy."

  @MARKER-ARTIFACT-002 @MARKER-ARTIFACT-001
  Scenario: Parts that no citation names stay on the task
    Given the data part "tool_data_01"
    And the data part "user_data_1"
    And the model writes "Plain answer, as you noted{cite:user_data_1}."
    When the server builds the answer artifact
    Then the artifact holds the text part:
      """json
      {"text": "Plain answer, as you noted.", "metadata": {"citations": []}}
      """
    And the artifact carries the data parts []

  @MARKER-ARTIFACT-003
  Scenario: A data part reaches the client exactly as the connector produced it
    When "marker.artifact" is called with:
      """json
      {"text": "Claim\ue200cite\ue202tool_data_02\ue201.",
       "parts": [{"kind": "data", "data": {"value": [1, 2.50, null]},
                  "metadata": {"dataPartId": "tool_data_02", "toolName": "pubmed_search", "page": 2}}]}
      """
    Then the output member "artifact.parts[1]" is:
      """json
      {"kind": "data", "data": {"value": [1, 2.50, null]},
       "metadata": {"dataPartId": "tool_data_02", "toolName": "pubmed_search", "page": 2}}
      """

  @MARKER-ARTIFACT-004
  Scenario: No artifact when the answer cites only the user's data and says nothing
    Given the data part "user_data_1"
    And the model writes "{cite:user_data_1}"
    When the server builds the answer artifact
    Then the output is {"retry": true}

  @MARKER-ARTIFACT-005
  Scenario: Two data parts with one GID make the artifact unusable
    Given the data part "tool_data_01"
    And the data part "tool_data_01"
    And the model writes "Claim{cite:tool_data_01}."
    When the server builds the answer artifact
    Then it is refused with code "MARKER_DUPLICATE_PART_ID"
