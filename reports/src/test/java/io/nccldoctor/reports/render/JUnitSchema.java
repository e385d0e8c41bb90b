package io.nccldoctor.reports.render;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The Jenkins xunit plugin's junit-10.xsd (src/test/resources/schema, source in the README there), as a validator
 * that collects every problem instead of stopping at the first.
 */
public final class JUnitSchema {

    /** Where the schema lies, from any module's folder (tests run there). */
    public static final Path XSD = Path.of("../reports/src/test/resources/schema/junit-10.xsd");

    private JUnitSchema() {
    }

    /** Every warning, error and fatal error of the validation, "line:column: message"; empty when the document is valid. */
    public static List<String> problems(String xml) throws IOException, SAXException {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        Schema schema = factory.newSchema(XSD.toFile());
        Validator v = schema.newValidator();
        List<String> problems = new ArrayList<>();
        v.setErrorHandler(new ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {
                problems.add(at(e));
            }

            @Override
            public void error(SAXParseException e) {
                problems.add(at(e));
            }

            @Override
            public void fatalError(SAXParseException e) {
                problems.add(at(e));
            }
        });
        try {
            v.validate(new StreamSource(new StringReader(xml)));
        } catch (SAXParseException e) {
            // fatal: already recorded by the handler
        }
        return problems;
    }

    private static String at(SAXParseException e) {
        return e.getLineNumber() + ":" + e.getColumnNumber() + ": " + e.getMessage();
    }
}
