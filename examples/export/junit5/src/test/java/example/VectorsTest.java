package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** One dynamic test a vector of each op in IMPLEMENTED, named by the vector's id. */
class VectorsTest {
  static final Map<String, Function<JsonNode, JsonNode>> IMPLEMENTED =
      Map.of("quote.normalize", QuoteNormalize::apply);

  // A member named twice is an error here, as PROTO-ERROR-003 wants of an input.
  static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  @TestFactory
  Stream<DynamicTest> vectors() throws IOException {
    Path export = Path.of(System.getProperty("conform.export"));
    JsonNode index = JSON.readTree(export.resolve("index.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (String op : IMPLEMENTED.keySet()) {
      for (JsonNode file : index.get("ops").get(op).get("files")) {
        for (JsonNode vector : JSON.readTree(export.resolve(file.asText()).toFile()).get("vectors")) {
          tests.add(DynamicTest.dynamicTest(vector.get("id").asText(), () -> judge(op, vector)));
        }
      }
    }
    assertTrue(!tests.isEmpty(), "no vector of " + IMPLEMENTED.keySet() + " in " + export);
    return tests.stream();
  }

  static void judge(String op, JsonNode vector) {
    JsonNode expect = vector.get("expect");
    if (expect.has("error")) {
      assertEquals("bad_request", expect.get("error").get("kind").asText());
      assertThrows(QuoteNormalize.BadRequest.class, () -> IMPLEMENTED.get(op).apply(input(vector)));
      return;
    }
    JsonNode got = IMPLEMENTED.get(op).apply(input(vector));
    List<JsonNode> wants = new ArrayList<>();
    if (expect.has("output")) {
      wants.add(expect.get("output"));
    } else {
      expect.get("outputs").forEach(wants::add);
    }
    assertTrue(wants.stream().anyMatch(w -> matches(w, got)), "got " + got + ", want " + wants);
  }

  /** The input; input_text is raw JSON that may name a member twice (a bad request). */
  static JsonNode input(JsonNode vector) {
    if (!vector.has("input_text")) {
      return vector.get("input");
    }
    try {
      return JSON.readTree(vector.get("input_text").asText());
    } catch (IOException e) {
      throw new QuoteNormalize.BadRequest(e.getMessage());
    }
  }

  /** JSON values equal as the runner compares them; in a refusal only the code counts, and may be left out. */
  static boolean matches(JsonNode want, JsonNode got) {
    if (want.isObject() && got.isObject()) {
      for (String key : List.of("rejected", "dropped")) {
        if (want.has(key) || got.has(key)) {
          JsonNode code = got.path(key).get("code");
          return want.size() == got.size() && got.path(key).isObject() && want.has(key)
              && (code == null || code.equals(want.get(key).get("code")));
        }
      }
      if (want.size() != got.size()) {
        return false;
      }
      for (Iterator<String> names = want.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!got.has(name) || !matches(want.get(name), got.get(name))) {
          return false;
        }
      }
      return true;
    }
    if (want.isArray() && got.isArray()) {
      if (want.size() != got.size()) {
        return false;
      }
      for (int i = 0; i < want.size(); i++) {
        if (!matches(want.get(i), got.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (want.isNumber() && got.isNumber()) {
      return want.decimalValue().compareTo(got.decimalValue()) == 0;
    }
    return want.equals(got);
  }
}
