; Tags for Java (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).

(class_declaration name: (identifier) @name.definition.class) @definition.class
(record_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(annotation_type_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum

(method_declaration name: (identifier) @name.definition.method) @definition.method
(constructor_declaration name: (identifier) @name.definition.method) @definition.method
(compact_constructor_declaration name: (identifier) @name.definition.method) @definition.method
(annotation_type_element_declaration name: (identifier) @name.definition.method) @definition.method
(enum_constant name: (identifier) @name.definition.constant) @definition.constant

; Fields: ALL_CAPS ones (static finals, by convention) are constants; interface fields are constants too.
(field_declaration declarator: (variable_declarator name: (identifier) @name.definition.constant)
  (#match? @name.definition.constant "^[A-Z][A-Z0-9_]*$")) @definition.constant
(field_declaration declarator: (variable_declarator name: (identifier) @name.definition.field)
  (#not-match? @name.definition.field "^[A-Z][A-Z0-9_]*$")) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name.definition.constant)) @definition.constant

; References. Every type identifier is a type use (declared names are plain identifiers in this grammar).
(method_invocation name: (identifier) @name.reference.call)
(method_reference (identifier) @name.reference.call .)
(type_identifier) @name.reference.type
(object_creation_expression type: [
  (type_identifier) @name.reference.class
  (generic_type (type_identifier) @name.reference.class)
  (scoped_type_identifier (type_identifier) @name.reference.class .)])
(superclass [
  (type_identifier) @name.reference.class
  (generic_type (type_identifier) @name.reference.class)
  (scoped_type_identifier (type_identifier) @name.reference.class .)])
(super_interfaces (type_list [
  (type_identifier) @name.reference.implementation
  (generic_type (type_identifier) @name.reference.implementation)
  (scoped_type_identifier (type_identifier) @name.reference.implementation .)]))
(extends_interfaces (type_list [
  (type_identifier) @name.reference.implementation
  (generic_type (type_identifier) @name.reference.implementation)
  (scoped_type_identifier (type_identifier) @name.reference.implementation .)]))
(marker_annotation name: (identifier) @name.reference.type)
(annotation name: (identifier) @name.reference.type)

; Imports: `import a.b.C;` brings C from a.b; `import a.b.*;` brings everything from a.b; static imports alike.
(import_declaration (scoped_identifier scope: (_) @import.source name: (identifier) @import.name) .)
(import_declaration (scoped_identifier) @import.source (asterisk))
