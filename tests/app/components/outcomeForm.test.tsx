// The shared form scaffolding of the sign-in, password and registration forms (SPEC §5 field errors
// under their fields, SPEC §8 the rest in a red 'Error' alert joined with '; ').
import TextField from '@mui/material/TextField';
import { fireEvent, render, screen } from '@testing-library/react';
import type { OutcomeForm as OutcomeFormState } from '../../../src/app/api/useOutcomeForm';
import { alertMessage, fieldErrorProps, OutcomeForm } from '../../../src/app/components/OutcomeForm';

function state(
  overrides: Partial<OutcomeFormState<'email' | 'projectId'>> = {},
): OutcomeFormState<'email' | 'projectId'> {
  return {
    fieldErrors: {},
    message: undefined,
    submitting: false,
    setFieldErrors: jest.fn(),
    run: jest.fn(),
    ...overrides,
  };
}

describe('OutcomeForm', () => {
  it('is a named form with no browser validation: fields, a submit button, a footer; submit runs the action', () => {
    const form = state();
    const action = jest.fn(async () => undefined);
    render(
      <OutcomeForm
        label="Reset password"
        form={form}
        submitLabel="Send"
        action={action}
        footer={<p>After</p>}
      >
        <TextField label="Email" />
      </OutcomeForm>,
    );
    expect(screen.getByRole('form', { name: 'Reset password' })).toHaveAttribute('novalidate');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Send' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(screen.getByText('After')).toBeInTheDocument();
    fireEvent.click(button);
    expect(form.run).toHaveBeenCalledWith(action);
    expect(form.setFieldErrors).not.toHaveBeenCalled();
  });

  it('SPEC §5 local problems go to their fields and nothing is sent', () => {
    const form = state();
    const validate = jest.fn(() => ({ email: 'Email is required' }));
    render(
      <OutcomeForm label="Sign in" form={form} submitLabel="Next" validate={validate} action={jest.fn()}>
        <span />
      </OutcomeForm>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(form.setFieldErrors).toHaveBeenCalledWith({ email: 'Email is required' });
    expect(form.run).not.toHaveBeenCalled();
    // No problems: the request runs.
    validate.mockReturnValue({} as { email: string });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(form.run).toHaveBeenCalledTimes(1);
  });

  it("SPEC §8 shows the message and the issues of fields without an input in one red 'Error' alert", () => {
    render(
      <OutcomeForm
        label="Register"
        form={state({
          message: 'Registration is closed',
          fieldErrors: { projectId: 'Unknown project', email: 'Taken' },
        })}
        alertFields={['projectId']}
        submitLabel="Create account"
        action={jest.fn()}
      >
        <span />
      </OutcomeForm>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('ErrorRegistration is closed; Unknown project');
    expect(alert).not.toHaveTextContent('Taken');
    expect(alert).toHaveClass('MuiAlert-colorError', 'MuiAlert-filled');
  });

  it('without a submit label there is no submit button (the form brings its own actions)', () => {
    render(
      <OutcomeForm label="Sign in" form={state()} submitLabel={null} action={jest.fn()}>
        <button type="button">Sign in with example.org</button>
      </OutcomeForm>,
    );
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it('the submit button is busy while a request runs', () => {
    render(
      <OutcomeForm label="Sign in" form={state({ submitting: true })} submitLabel="Next" action={jest.fn()}>
        <span />
      </OutcomeForm>,
    );
    expect(screen.getByRole('button', { name: /Next/ })).toBeDisabled();
  });
});

describe('alertMessage and fieldErrorProps', () => {
  it('joins with "; " and is undefined when there is nothing to say', () => {
    expect(
      alertMessage<'email' | 'projectId'>({ message: undefined, fieldErrors: {} }, ['projectId']),
    ).toBeUndefined();
    expect(
      alertMessage<'email' | 'projectId'>({ message: undefined, fieldErrors: { projectId: 'Bad' } }, [
        'projectId',
      ]),
    ).toBe('Bad');
    expect(
      alertMessage<'email' | 'projectId'>({ message: 'A', fieldErrors: { projectId: 'B', email: 'C' } }, [
        'projectId',
      ]),
    ).toBe('A; B');
  });

  it('SPEC §5 marks a field red with its text under it only when it has an issue', () => {
    expect(fieldErrorProps(undefined)).toEqual({ error: false, helperText: undefined });
    expect(fieldErrorProps('Email is required')).toEqual({ error: true, helperText: 'Email is required' });
  });
});
