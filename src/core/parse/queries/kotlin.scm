; Tags for Kotlin (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; This grammar has no field names and one class_declaration node for classes, interfaces and enums: the specific
; patterns carry the keyword, and extract.ts lets their kind win over the generic `class`.

(class_declaration (type_identifier) @name.definition.class) @definition.class
(class_declaration "interface" (type_identifier) @name.definition.interface) @definition.interface
(class_declaration "enum" (type_identifier) @name.definition.enum) @definition.enum
(object_declaration (type_identifier) @name.definition.object) @definition.object
(type_alias (type_identifier) @name.definition.type) @definition.type
(enum_entry (simple_identifier) @name.definition.constant) @definition.constant

(function_declaration (simple_identifier) @name.definition.function) @definition.function
; Extension functions `fun Receipt.describe()` belong to the receiver type.
(function_declaration
  (user_type (type_identifier) @container) .
  (simple_identifier) @name.definition.method) @definition.method
(secondary_constructor "constructor" @name.definition.method) @definition.method

; Properties: top-level ones are constants, class members and `val`/`var` constructor parameters are fields.
(source_file (property_declaration (variable_declaration (simple_identifier) @name.definition.constant)) @definition.constant)
(class_body (property_declaration (variable_declaration (simple_identifier) @name.definition.field)) @definition.field)
(class_parameter (binding_pattern_kind) (simple_identifier) @name.definition.field) @definition.field

; References. Kotlin has no `new`: a call to a capitalised name is an instantiation.
(call_expression (simple_identifier) @name.reference.call (#not-match? @name.reference.call "^[A-Z]"))
(call_expression (simple_identifier) @name.reference.class (#match? @name.reference.class "^[A-Z]"))
(call_expression (navigation_expression (navigation_suffix (simple_identifier) @name.reference.call)))
(user_type (type_identifier) @name.reference.type)
(delegation_specifier (constructor_invocation (user_type (type_identifier) @name.reference.class)))
(delegation_specifier (user_type (type_identifier) @name.reference.implementation))

; Imports: the source is the imported path and the name its last segment (the name in the source module, also
; under an alias); a wildcard import brings no listed names. A comment after an import (the file's first KDoc, often)
; is a child of its import_header in this grammar, so it counts like the end of the import.
(import_header (identifier (simple_identifier) @import.name .) @import.source .)
(import_header (identifier (simple_identifier) @import.name .) @import.source . [(import_alias) (line_comment) (multiline_comment)])
(import_header (identifier) @import.source (wildcard_import))
