/// The built-in catalogues (SEMANTICS §9). Every code has a text in every locale.
///
/// Spanish texts say "El campo {label} …" so adjectives agree with "campo" whatever the label's
/// gender; section codes say "La sección {label} …". `compare` uses the derived `{relation}`
/// (see `MessageTemplate`). `unstable` is form-level: it names the fields, not a label.
enum BuiltInMessages {
    static let texts: [SupportedLocale: [ErrorCode: String]] = [
        .en: [
            .required: "{label} is required.",
            .type: "{label} has an invalid value.",
            .minLength: "{label} must be at least {min} characters long.",
            .maxLength: "{label} must be at most {max} characters long.",
            .minValue: "{label} must be at least {min}.",
            .maxValue: "{label} must be at most {max}.",
            .format: "{label} is not in the expected format.",
            .compare: "{label} must be {relation} {other}.",
            .ssn: "{label} is not a valid Norwegian national identity number.",
            .bankAccount: "{label} is not a valid Norwegian bank account number.",
            .postalCode: "{label} is not a valid postal code.",
            .minInstances: "{label} needs at least {min} entries.",
            .maxInstances: "{label} can have at most {max} entries.",
            .unstable: "The form could not settle. These fields kept changing: {fields}.",
            .textTooLong: "{label} would be longer than {max} bytes, so it was not computed.",
        ],
        .nb: [
            .required: "{label} må fylles ut.",
            .type: "{label} har en ugyldig verdi.",
            .minLength: "{label} må ha minst {min} tegn.",
            .maxLength: "{label} kan ikke ha mer enn {max} tegn.",
            .minValue: "{label} må være minst {min}.",
            .maxValue: "{label} kan ikke være større enn {max}.",
            .format: "{label} har feil format.",
            .compare: "{label} må være {relation} {other}.",
            .ssn: "{label} er ikke et gyldig fødselsnummer.",
            .bankAccount: "{label} er ikke et gyldig kontonummer.",
            .postalCode: "{label} er ikke et gyldig postnummer.",
            .minInstances: "{label} må ha minst {min} oppføringer.",
            .maxInstances: "{label} kan ikke ha mer enn {max} oppføringer.",
            .unstable: "Skjemaet kom ikke i ro. Disse feltene fortsatte å endre seg: {fields}.",
            .textTooLong: "{label} ville blitt lengre enn {max} byte og ble derfor ikke beregnet.",
        ],
        .es: [
            .required: "El campo {label} es obligatorio.",
            .type: "El campo {label} tiene un valor no válido.",
            .minLength: "El campo {label} debe tener al menos {min} caracteres.",
            .maxLength: "El campo {label} no puede tener más de {max} caracteres.",
            .minValue: "El campo {label} debe ser mayor o igual que {min}.",
            .maxValue: "El campo {label} debe ser menor o igual que {max}.",
            .format: "El campo {label} no tiene el formato correcto.",
            .compare: "El campo {label} debe ser {relation} {other}.",
            .ssn: "El campo {label} no es un número de identidad noruego válido.",
            .bankAccount: "El campo {label} no es un número de cuenta bancaria noruego válido.",
            .postalCode: "El campo {label} no es un código postal válido.",
            .minInstances: "La sección {label} debe tener al menos {min} elementos.",
            .maxInstances: "La sección {label} no puede tener más de {max} elementos.",
            .unstable: "El formulario no llegó a estabilizarse. Estos campos seguían cambiando: {fields}.",
            .textTooLong: "El campo {label} superaría {max} bytes, por lo que no se ha calculado.",
        ],
    ]
}
