; Tags for Swift (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; One class_declaration node holds classes, structs, enums, actors and extensions; its declaration_kind tells them
; apart. Members of an `extension Foo` name Foo with @container, so they become `Foo.bar`.

(class_declaration declaration_kind: "class" name: (type_identifier) @name.definition.class) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name.definition.class) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name.definition.struct) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name.definition.enum) @definition.enum
(protocol_declaration name: (type_identifier) @name.definition.protocol) @definition.protocol
(typealias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enum_entry name: (simple_identifier) @name.definition.constant) @definition.constant

(function_declaration name: (simple_identifier) @name.definition.function) @definition.function
(protocol_function_declaration name: (simple_identifier) @name.definition.method) @definition.method
(init_declaration "init" @name.definition.method) @definition.method
(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @container)
  body: (class_body [
    (function_declaration name: (simple_identifier) @name.definition.method) @definition.method
    (init_declaration "init" @name.definition.method) @definition.method
    (property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.field)) @definition.field]))

; Properties: top-level ones are constants, type members are fields.
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.constant)) @definition.constant)
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.field)) @definition.field)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.field)) @definition.field)

; References. Swift has no `new`: a call to a capitalised name is an instantiation. The grammar cannot tell a
; superclass from a protocol in an inheritance list, so both count as implementation.
(call_expression (simple_identifier) @name.reference.call (#not-match? @name.reference.call "^[A-Z]"))
(call_expression (simple_identifier) @name.reference.class (#match? @name.reference.class "^[A-Z]"))
(call_expression (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name.reference.call)))
(user_type (type_identifier) @name.reference.type)
(inheritance_specifier inherits_from: (user_type (type_identifier) @name.reference.implementation))

(import_declaration (identifier) @import.source)
