; Tags for C# (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; In this grammar a type name is a plain identifier: type uses are the identifiers in `type:` and base-list places.

(class_declaration name: (identifier) @name.definition.class) @definition.class
(record_declaration name: (identifier) @name.definition.class) @definition.class
(struct_declaration name: (identifier) @name.definition.struct) @definition.struct
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(enum_member_declaration name: (identifier) @name.definition.constant) @definition.constant
(delegate_declaration name: (identifier) @name.definition.type) @definition.type
(namespace_declaration name: (_) @name.definition.module) @definition.module
(file_scoped_namespace_declaration name: (_) @name.definition.module) @definition.module

(method_declaration name: (identifier) @name.definition.method) @definition.method
(constructor_declaration name: (identifier) @name.definition.method) @definition.method
(destructor_declaration name: (identifier) @name.definition.method) @definition.method
(operator_declaration "operator" @name.definition.method) @definition.method
(local_function_statement name: (identifier) @name.definition.function) @definition.function
(property_declaration name: (identifier) @name.definition.field) @definition.field
(record_declaration parameters: (parameter_list (parameter name: (identifier) @name.definition.field) @definition.field))
(event_field_declaration (variable_declaration (variable_declarator (identifier) @name.definition.field))) @definition.field

; Fields: `const` ones are constants, the rest fields.
(field_declaration (modifier) @_const (variable_declaration (variable_declarator (identifier) @name.definition.constant))
  (#eq? @_const "const")) @definition.constant
(field_declaration (variable_declaration (variable_declarator (identifier) @name.definition.field))) @definition.field

; References.
(invocation_expression function: (identifier) @name.reference.call)
(invocation_expression function: (member_access_expression name: (identifier) @name.reference.call))
(invocation_expression function: (generic_name (identifier) @name.reference.call))
(invocation_expression function: (conditional_access_expression (member_binding_expression name: (identifier) @name.reference.call)))
(invocation_expression function: (member_access_expression name: (generic_name (identifier) @name.reference.call)))
(object_creation_expression type: [
  (identifier) @name.reference.class
  (generic_name (identifier) @name.reference.class)
  (qualified_name (identifier) @name.reference.class .)])
; A base list names the base class and the interfaces alike; by .NET naming, `IName` is an interface.
(base_list [
  (identifier) @name.reference.class
  (generic_name (identifier) @name.reference.class)
  (qualified_name (identifier) @name.reference.class .)] (#not-match? @name.reference.class "^I[A-Z]"))
(base_list [
  (identifier) @name.reference.implementation
  (generic_name (identifier) @name.reference.implementation)
  (qualified_name (identifier) @name.reference.implementation .)] (#match? @name.reference.implementation "^I[A-Z]"))
(_ type: (identifier) @name.reference.type)
(_ type: (generic_name (identifier) @name.reference.type))
(_ type: (nullable_type (identifier) @name.reference.type))
(_ type: (array_type (identifier) @name.reference.type))
(type_argument_list (identifier) @name.reference.type)
(attribute name: (identifier) @name.reference.type)

; Imports: `using A.B;` brings the namespace A.B; `using X = A.B.C;` brings C from A.B.
(using_directive . (identifier) @import.source .)
(using_directive . (qualified_name) @import.source .)
(using_directive (name_equals) (qualified_name (_) @import.source (identifier) @import.name .))
