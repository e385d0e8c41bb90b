package io.nccldoctor.core;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * JSON form of {@link Fact}: {@code {"value": …}}, {@code {"absent": "reason"}} or {@code {"error": "cause"}}.
 * Exactly one key, so a reader can tell the three states apart without a type field.
 */
final class FactModule extends SimpleModule {

    @SuppressWarnings({"unchecked", "rawtypes"})
    FactModule() {
        super("nccl-doctor-fact");
        addSerializer((Class) Fact.class, new FactSerializer());
        addDeserializer((Class) Fact.class, new FactDeserializer(null));
    }

    private static final class FactSerializer extends StdSerializer<Fact<?>> {
        @SuppressWarnings({"unchecked", "rawtypes"})
        FactSerializer() {
            super((Class) Fact.class);
        }

        @Override
        public void serialize(Fact<?> fact, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject();
            if (fact instanceof Fact.Value<?> v) {
                gen.writeFieldName("value");
                provider.defaultSerializeValue(v.value(), gen);
            } else if (fact instanceof Fact.Absent<?> a) {
                gen.writeStringField("absent", a.reason());
            } else {
                gen.writeStringField("error", fact.reason());
            }
            gen.writeEndObject();
        }
    }

    private static final class FactDeserializer extends JsonDeserializer<Fact<?>> implements ContextualDeserializer {
        private final JavaType valueType;

        FactDeserializer(JavaType valueType) {
            this.valueType = valueType;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
            JavaType type = ctxt.getContextualType() != null ? ctxt.getContextualType()
                    : property != null ? property.getType() : null;
            JavaType inner = type != null && type.containedTypeCount() == 1 ? type.containedType(0)
                    : ctxt.constructType(Object.class);
            return new FactDeserializer(inner);
        }

        @Override
        public Fact<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode node = p.readValueAsTree();
            if (!(node instanceof ObjectNode obj) || obj.size() != 1) {
                return ctxt.reportInputMismatch(Fact.class,
                        "a fact is an object with exactly one of value, absent, error; got %s", node);
            }
            if (obj.has("absent")) {
                return Fact.absent(obj.get("absent").asText());
            }
            if (obj.has("error")) {
                return Fact.error(obj.get("error").asText());
            }
            if (obj.has("value")) {
                JavaType type = valueType != null ? valueType : ctxt.constructType(Object.class);
                Object value = obj.get("value").isNull() ? null : ctxt.readTreeAsValue(obj.get("value"), type);
                if (value == null) {
                    return ctxt.reportInputMismatch(Fact.class, "a fact's value is never null (a missing value is {\"absent\": \"why\"})");
                }
                return Fact.of(value);
            }
            return ctxt.reportInputMismatch(Fact.class, "unknown fact state %s", obj.fieldNames().next());
        }
    }
}
