package io.nccldoctor.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.nccldoctor.core.read.Decoded;

/**
 * The one JSON (and YAML) setup of the project. Field names are the record component names (camelCase,
 * units in the name such as {@code busBwGBps}); numbers are written by Jackson's own formatter, which is
 * locale-independent, so a German locale never puts a decimal comma into a document.
 */
public final class Json {

    private static final ObjectMapper MAPPER = configure(JsonMapper.builder()).build();
    private static final ObjectMapper YAML = configure(YAMLMapper.builder()).build();

    private Json() {
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B b) {
        return b.addModule(new FactModule())
                .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    }

    /** The shared JSON mapper (thread-safe once configured). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** A mapper for configuration files under configs/: the same binding rules, YAML syntax. */
    public static ObjectMapper yaml() {
        return YAML;
    }

    /** Pretty JSON with a trailing newline, ready to print or write. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * The JSON document of a text input. A syntax error (a cut file, a stray byte, nesting deeper than Jackson's limit of
     * 1,000) is one line naming the input, its line and column.
     */
    public static JsonNode tree(Decoded in) {
        JsonNode n;
        try {
            n = MAPPER.readTree(in.text());
        } catch (JsonProcessingException e) {
            throw new InputException(in.source() + JsonProblems.at(e) + ": not valid JSON (" + JsonProblems.firstLine(e.getOriginalMessage())
                    + ")", e);
        }
        if (n == null || n.isMissingNode()) {
            throw new InputException(in.source() + ": empty; expected a JSON document");
        }
        return n;
    }

    /**
     * A JSON tree as a type. A value of the wrong type, out of range, or a field this version does not know is one line:
     * {@code where: field.path: expected a whole number from …, got a string "x"}.
     */
    public static <T> T convert(JsonNode node, Class<T> type, String where) {
        return convert(node, MAPPER.constructType(type), where);
    }

    public static <T> T convert(JsonNode node, TypeReference<T> type, String where) {
        return convert(node, MAPPER.constructType(type), where);
    }

    private static <T> T convert(JsonNode node, JavaType type, String where) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw new InputException(where + ": " + JsonProblems.got(node) + " where " + JsonProblems.expected(type.getRawClass())
                    + " belongs");
        }
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InputException(where + ": " + JsonProblems.binding(e, node), e);
        }
    }
}
